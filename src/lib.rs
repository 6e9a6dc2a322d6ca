//! skillscope: see agent skills exactly as Hermes Agent sees them.
//!
//! [`engine`] is a terminal-free model of the Hermes Agent 0.19.0 skills
//! engine; [`cli`] answers scriptable subcommands with its JSON; [`tui`] is
//! the terminal browser over the same engine.

pub mod cli;
pub mod compare;
pub mod demo;
pub mod memory;
pub mod open;
pub mod scratch;
pub mod search;
pub mod tui;

/// The model of Hermes (its own crate, `crates/engine`).
pub use skillscope_engine as engine;
pub use skillscope_engine::sanitize;
