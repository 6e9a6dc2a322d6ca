fn main() {
    std::process::exit(skillscope::cli::run(std::env::args_os()));
}
