// The scan allocates many small YAML events; mimalloc serves them faster
// than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `mi_option_purge_delay` in mimalloc's `mi_option_e` (the same in its v2
/// and v3; the sys crate names no constant for it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

fn main() {
    // Freed memory goes back to the system at once rather than after a
    // delay: a thread that goes idle (the browser's after a scan or a
    // check) never comes back to purge, and what it freed stayed resident
    // (a third of the browser's memory, 40 % of `check`'s), for no
    // measurable speed.
    // SAFETY: sets a number mimalloc reads on its next purge; any value is valid.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
    std::process::exit(skillscope::cli::run(std::env::args_os()));
}
