//! How the process holds memory: settings for the allocator the binary
//! runs on (mimalloc), applied by `main` and by the benchmarks that time
//! the app in-process.

/// `mi_option_purge_delay` in mimalloc's `mi_option_e` (the same in its v2
/// and v3; the sys crate names no constant for it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Call once, first thing.
pub fn tune() {
    no_transparent_huge_pages();
}

/// For a process that stays (the browser), after [`tune`]: freed memory
/// goes back to the system at once rather than after mimalloc's delay
/// (10 ms). A thread that goes idle (the browser's after a scan or a check)
/// never comes back to purge, and what it freed stayed resident (a third of
/// the browser's memory, 40 % of `check`'s), for no measurable speed. A
/// command that answers and exits keeps the delay: memory freed and soon
/// allocated again is not handed back and faulted in anew (`diff` at
/// 10,000 skills: 16 % fewer page faults, 5–8 % less time, 4 % more memory
/// at its peak).
pub fn tune_for_staying() {
    // SAFETY: sets a number mimalloc reads on its next purge; any value is valid.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
}

/// Turns transparent huge pages off for this process. Where the system
/// allows them (`madvise` or `always`), mimalloc's arena is backed by 2 MiB
/// pages, and a page keeps all of its 2 MiB resident while any small
/// allocation in it lives: the browser held a third of its memory that way
/// (10,000 skills: 93–95 MiB instead of 62–64). Small pages cost page faults: a
/// 10,000-skill check takes about 15 % more CPU time, in the same wall time
/// within noise (0.48–0.55 s against 0.50–0.61 s).
fn no_transparent_huge_pages() {
    #[cfg(target_os = "linux")]
    // SAFETY: prctl with PR_SET_THP_DISABLE takes plain integers and only
    // sets a flag of this process; a failure (an old kernel) changes nothing.
    unsafe {
        libc::prctl(libc::PR_SET_THP_DISABLE, 1, 0, 0, 0);
    }
}
