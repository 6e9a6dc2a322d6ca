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

fn order() -> Order {
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
}
