// The scan allocates many small YAML events; mimalloc serves them faster
// than the system allocator.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    skillscope::memory::tune();
    skillscope::scratch::on_signals(skillscope::tui::terminal::restore_if_held);
    std::process::exit(skillscope::cli::run(std::env::args_os()));
}
