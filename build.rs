//! The demo home is embedded with `include_dir!`, which cargo does not
//! track: a change under `assets/demo` rebuilds the binary through this.
fn main() {
    println!("cargo::rerun-if-changed=assets/demo");
}
