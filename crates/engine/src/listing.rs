//! The order directory listings come in.
//!
//! Hermes lists supporting files with `Path.glob`, `rglob` and `iterdir`,
//! which yield entries in the filesystem's own order, and skillscope keeps
//! that order: it runs on the machine and filesystem the agent runs on.
//! That order differs between filesystems (ext4 hashes names with a
//! per-filesystem seed), so golden tests made on one machine could not be
//! checked on another. For them, `SKILLSCOPE_LISTING_ORDER=fnv1a` (or
//! [`set_order`]) lists every folder by the 32-bit FNV-1a hash of each name,
//! then the name; `tests/golden/hermes-ref/listing_order.py` makes Python's
//! `os.scandir` and `os.listdir` do the same, so both list alike anywhere.
//! `diff` lists this way too: a revision's copy lies on another filesystem
//! than the working tree, and both states must list the same files alike.
//! The browser's `--since` compares in this order on its own threads only
//! ([`in_order`]), while its views keep the filesystem's.

use std::cell::Cell;
use std::ffi::OsString;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::OnceLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// As the filesystem lists them.
    Filesystem,
    /// By FNV-1a hash of the name's bytes, then the name (tests, `diff`).
    Fnv1a,
}

static CHOSEN: AtomicU8 = AtomicU8::new(0);

/// Lists every folder in this order from now on (tests, `diff`).
pub fn set_order(order: Order) {
    CHOSEN.store(if order == Order::Fnv1a { 2 } else { 1 }, Ordering::Relaxed);
}

thread_local! {
    /// The order this thread lists in, when [`in_order`] chose one.
    static ON_THIS_THREAD: Cell<Option<Order>> = const { Cell::new(None) };
}

/// Runs `f` with this thread listing every folder in `order`; threads that
/// carry it ([`carried`]) list so too. Other threads keep theirs.
pub fn in_order<R>(order: Order, f: impl FnOnce() -> R) -> R {
    let before = ON_THIS_THREAD.replace(Some(order));
    // Put back even when `f` unwinds: the thread may run other work after.
    struct Restore(Option<Order>);
    impl Drop for Restore {
        fn drop(&mut self) {
            ON_THIS_THREAD.set(self.0);
        }
    }
    let _restore = Restore(before);
    f()
}

/// `f`, to run on another thread in the order this thread lists in: every
/// thread the engine starts to list folders runs its work this way.
pub fn carried<R>(f: impl FnOnce() -> R) -> impl FnOnce() -> R {
    let chosen = ON_THIS_THREAD.get();
    move || match chosen {
        Some(order) => in_order(order, f),
        None => f(),
    }
}

fn order() -> Order {
    if let Some(order) = ON_THIS_THREAD.get() {
        return order;
    }
    static FROM_ENV: OnceLock<Order> = OnceLock::new();
    match CHOSEN.load(Ordering::Relaxed) {
        1 => Order::Filesystem,
        2 => Order::Fnv1a,
        _ => *FROM_ENV.get_or_init(|| match std::env::var("SKILLSCOPE_LISTING_ORDER").as_deref() {
            Ok("fnv1a") => Order::Fnv1a,
            _ => Order::Filesystem,
        }),
    }
}

/// 32-bit FNV-1a.
fn fnv1a(bytes: &[u8]) -> u32 {
    bytes.iter().fold(0x811c_9dc5u32, |h, &b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193))
}

/// Puts a folder's entries in the listing order (a no-op for the
/// filesystem's own).
pub fn arrange<T>(entries: &mut [T], name: impl Fn(&T) -> OsString) {
    if order() == Order::Fnv1a {
        entries.sort_by_cached_key(|e| {
            let bytes = name(e).into_encoded_bytes();
            (fnv1a(&bytes), bytes)
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_matches_the_reference_values() {
        assert_eq!(fnv1a(b""), 0x811c_9dc5);
        assert_eq!(fnv1a(b"a"), 0xe40c_292c);
        assert_eq!(fnv1a(b"foobar"), 0xbf9c_f968);
    }

    fn listed(names: &[&str]) -> Vec<String> {
        let mut entries: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        arrange(&mut entries, |e| OsString::from(e));
        entries
    }

    #[test]
    fn an_order_chosen_for_a_thread_holds_there_and_where_carried_only() {
        // The process-wide order stays the filesystem's in this test binary.
        const NAMES: [&str; 4] = ["b", "a", "c", "foobar"];
        let names = NAMES;
        let hashed = {
            let mut sorted: Vec<&str> = names.to_vec();
            sorted.sort_by_key(|n| fnv1a(n.as_bytes()));
            sorted.iter().map(|n| (*n).to_owned()).collect::<Vec<_>>()
        };
        let as_given: Vec<String> = names.iter().map(|n| (*n).to_owned()).collect();
        let (inside, carried_out, not_carried) = in_order(Order::Fnv1a, || {
            let carried_out = std::thread::spawn(carried(|| listed(&NAMES))).join().unwrap();
            let not_carried = std::thread::spawn(|| listed(&NAMES)).join().unwrap();
            (listed(&names), carried_out, not_carried)
        });
        assert_eq!(inside, hashed);
        assert_eq!(carried_out, hashed);
        assert_eq!(not_carried, as_given);
        assert_eq!(listed(&names), as_given, "the thread's own order is put back");
    }
}
