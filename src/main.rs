// The scan allocates many small YAML events; mimalloc serves them faster
// than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    skillscope::memory::tune();
    skillscope::scratch::on_signals(skillscope::tui::terminal::restore_if_held);
    let code = skillscope::cli::run(std::env::args_os());
    // A signal may have ended what ran (a `git` that the same Ctrl-C
    // reached): its thread ends the process, with the signal's status.
    // Else what background jobs still hold is removed.
    skillscope::scratch::finish();
    std::process::exit(code);
}
