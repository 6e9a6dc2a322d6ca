//! Command-line interface: global flags, subcommands, exit statuses.
//!
//! Every subcommand asks the engine one question and prints Hermes' JSON
//! (`--json`) or a readable rendering of it. Exit status: 0 on success, 1 when
//! the answer is a Hermes error (or Hermes builds no message), 2 on usage
//! errors and unreadable homes.

mod bundles;
mod check;
mod commands;
mod cost;
pub(crate) mod diff;
mod lifecycle;
mod list;
mod mounts;
mod output;
mod prompt;
mod scan;
mod skills;
mod why;

use crate::demo::DemoHome;
use crate::engine::diagnostics::Severity;
use crate::engine::env::{Env, Os};
use crate::engine::home::resolve_home_path;
use crate::engine::layers::{read_db, valid_user_id, DbLocation, DbRead, Layers, Source};
use crate::engine::sandbox::{default_backend, Backend};
use crate::engine::{Engine, Options};
use crate::open::{FolderKind, StandInHome};
use clap::{Args, Parser, Subcommand};
use std::ffi::OsString;
use std::path::{Path, PathBuf};

pub const EXIT_OK: i32 = 0;
pub const EXIT_ANSWER_ERROR: i32 = 1;
pub const EXIT_USAGE: i32 = 2;

/// The name of a command that answers without the per-user layers (none
/// for those that take them).
fn unlayered(command: &Command) -> Option<&'static str> {
    Some(match command {
        Command::List { .. } | Command::View { .. } | Command::Check { .. } | Command::Diff(_) => return None,
        Command::Prompt { .. } => "prompt",
        Command::Cost { .. } => "cost",
        Command::Why { .. } => "why",
        Command::Commands => "commands",
        Command::Invoke { .. } => "invoke",
        Command::Preload { .. } => "preload",
        Command::Bundles => "bundles",
        Command::Mounts => "mounts",
        Command::Lifecycle { .. } => "lifecycle",
        Command::Scan { .. } => "scan",
    })
}

/// Layers and the database rows they read, when `--user` is given.
pub type Layered<'a> = Option<(&'a Layers, &'a DbRead)>;

#[derive(Debug, Parser)]
#[command(
    name = "skillscope",
    version,
    about = "See your agent skills exactly as Hermes Agent 0.19.0 sees them",
    long_about = "See your agent skills exactly as Hermes Agent 0.19.0 sees them.\n\n\
        Without a subcommand, opens the terminal browser (on a built-in demo home when no \
        Hermes home exists).\n\n\
        Each subcommand answers with what the real Hermes would produce for the same \
        skills home; add --json for the exact JSON.\n\n\
        Exit status: 0 success, 1 the answer is a Hermes error (or no message is built), \
        2 usage error or unreadable home."
)]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    /// What to browse: a Hermes home, a folder of skills, or one skill folder
    #[arg(value_name = "PATH")]
    pub path: Option<PathBuf>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Clone, Args)]
pub struct GlobalArgs {
    /// Hermes home to read, or a folder of skills, or one skill folder
    /// (default: $HERMES_HOME, else ~/.hermes; for diff, the git repository
    /// the current folder is in)
    #[arg(long, global = true, value_name = "PATH")]
    pub home: Option<PathBuf>,
    /// Use the built-in demo home (a throwaway copy)
    #[arg(long, global = true, conflicts_with = "home")]
    pub demo: bool,
    /// Evaluate platform gates as on another OS: linux, macos or windows
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_os)]
    pub platform: Option<Os>,
    /// Session id substituted for ${HERMES_SESSION_ID}
    #[arg(long, global = true, value_name = "ID", default_value = "preview")]
    pub session_id: String,
    /// Run !`cmd` snippets when config.yaml enables skills.inline_shell (off: they stay literal)
    #[arg(long, global = true)]
    pub inline_shell: bool,
    /// Print JSON instead of a readable rendering (Hermes' own where a Hermes
    /// function answers: list, view, prompt, commands, ...)
    #[arg(long, global = true)]
    pub json: bool,
    /// Terminal backend the agent runs on: local, docker, singularity, modal, ssh, daytona
    /// (default: $TERMINAL_ENV, else terminal.backend in config.yaml, else local)
    #[arg(long, global = true, value_name = "NAME", value_parser = parse_backend)]
    pub backend: Option<Backend>,
    /// Remote user's home for ssh and daytona (default: ~ for ssh, /root for daytona)
    #[arg(long, global = true, value_name = "PATH")]
    pub remote_home: Option<String>,
    /// Show the host paths Hermes 0.19.0 gives the agent even where they do not exist (remote backends)
    #[arg(long, global = true)]
    pub hermes_paths: bool,
    /// Turn on per-user layers: this user's skills (HERMES_HOME/users/ID/skills) before the shared ones
    #[arg(long, global = true, value_name = "ID")]
    pub user: Option<String>,
    /// With --user: also the user's active rows of table hermes_skills, in an SQLite file
    /// (PATH or sqlite:PATH) or on a server (mysql://USER@HOST[:PORT]/DB,
    /// postgres://USER@HOST[:PORT]/DB; password from SKILLSCOPE_DB_PASSWORD, ~/.pgpass, ~/.my.cnf)
    #[arg(long, global = true, value_name = "URL")]
    pub db: Option<String>,
    /// Your organisation; only org 0 may edit shared skills (default: none)
    #[arg(long, global = true, value_name = "ID")]
    pub org_id: Option<String>,
    /// Browser: mark the skills added, changed or removed since this git
    /// revision (`d` shows a skill's diff against it, `D` turns it off and on);
    /// without PATH, opens the git repository the current folder is in
    #[arg(long, value_name = "REV")]
    pub since: Option<String>,
    /// Draw the browser's first frame at WIDTHxHEIGHT as text on stdout and exit (benchmarks, docs)
    #[arg(long, hide = true, value_name = "WxH", value_parser = parse_size)]
    pub print_frame: Option<(u16, u16)>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// List skills as skills_list does (name, description, category)
    List {
        /// Only skills of this category
        #[arg(long)]
        category: Option<String>,
    },
    /// Show a skill as skill_view returns it, or one of its files
    View {
        /// Skill name or relative path (e.g. `deploy`, `devops/deploy`)
        name: String,
        /// A file inside the skill (e.g. `references/api.md`)
        file_path: Option<String>,
        /// With --user: look in this layer only (reaches a shadowed skill)
        #[arg(long, value_enum)]
        source: Option<SourceArg>,
    },
    /// Print the system-prompt skills index
    Prompt {
        #[command(flatten)]
        index: prompt::IndexArgs,
    },
    /// What the skills cost the prompt: the index whole, by category and
    /// by skill, in characters, bytes and tokens
    Cost {
        #[command(flatten)]
        index: prompt::IndexArgs,
        /// The token encoding: o200k_base (GPT-4o and later) or cl100k_base
        #[arg(long, value_parser = cost::parse_tokenizer, default_value = "o200k_base")]
        tokenizer: crate::engine::cost::Tokenizer,
        /// Also what loading each skill costs: its skill_view content and
        /// its slash command's message
        #[arg(long)]
        loaded: bool,
    },
    /// Why a skill is or is not offered: Hermes' pipeline for it, one step
    /// a line, each with the Hermes function, its outcome (pass, fail,
    /// note) and the file and line that decided it
    Why {
        /// A skill's name, folder name, or path
        name: String,
        #[command(flatten)]
        index: prompt::IndexArgs,
    },
    /// List the slash commands skills register, in scan order
    Commands,
    /// Print the message the agent receives for `/KEY [INSTRUCTION...]`
    Invoke {
        /// The command as typed, e.g. `/deploy` (bundles win over skills)
        key: String,
        /// Text after the command; further `/skill` words stack skills
        /// (put words starting with `-` after `--`)
        instruction: Vec<String>,
    },
    /// Print the prompt `hermes -s NAME,...` preloads: [text, loaded, missing]
    Preload {
        /// Skill names or paths (comma-separated lists allowed)
        #[arg(required = true)]
        names: Vec<String>,
    },
    /// List skill bundles (skill-bundles/*.yaml)
    Bundles,
    /// List the sandbox mounts of the skill roots
    Mounts,
    /// Where each skill came from, its usage, and what the curator's next
    /// automatic pass would do to it (read-only: nothing is written)
    Lifecycle {
        /// One skill only
        name: Option<String>,
        /// The time of the pass to forecast (ISO 8601; default: now)
        #[arg(long, value_name = "ISO", value_parser = lifecycle::parse_now)]
        now: Option<i64>,
    },
    /// Scan a skill as Hermes' skills guard does on a hub install, and say
    /// whether the install goes ahead (exit status 1 when it does not)
    Scan {
        /// A skill of the home (name, folder or category/folder), or a path
        /// to a skill folder or file (no Hermes home needed)
        target: String,
        /// Where the skill is installed from, as the hub names it (e.g.
        /// `openai/skills`, `official`, `someone/repo`); default `community`
        #[arg(long, conflicts_with = "trust")]
        source: Option<String>,
        /// The trust level to decide for: builtin, trusted, community or agent-created
        #[arg(long, value_name = "LEVEL", value_parser = parse_trust)]
        trust: Option<&'static str>,
        /// Decide as `hermes skills install --force` would
        #[arg(long)]
        force: bool,
        /// List every finding (the text report shows the first 50; --json has them all)
        #[arg(long)]
        all: bool,
    },
    /// What a change does to the agent: skills added, removed, moved or
    /// renamed, offered or not and why, index lines and cost, slash
    /// commands, messages, readiness, bundles, findings and install
    /// decisions, between a git revision (default HEAD) and the working
    /// tree or another revision
    #[command(
        after_help = "Without --home or PATH, diff reads the git repository the current folder is in (its top, or the \
                      one Hermes home it holds), not $HERMES_HOME: run it inside the repository, or name a folder of it."
    )]
    Diff(diff::DiffArgs),
    /// Check skills against agentskills.io and what Hermes does with them
    Check {
        /// Skills (name, folder or category/skill) or bundles (/slug); default: the whole home
        names: Vec<String>,
        /// Report (and fail on) findings at or above: error, warning or info
        /// (default: the settings file's, else error)
        #[arg(long, value_name = "LEVEL", value_parser = parse_severity)]
        min_severity: Option<Severity>,
        /// Count guard findings as errors for the skills a hub install at
        /// this trust level would refuse: builtin, trusted, community or
        /// agent-created (default: they are informational)
        #[arg(long, value_name = "LEVEL", value_parser = parse_trust)]
        trust: Option<&'static str>,
        /// Report only these rules: names, codes (H024), prefixes of either
        /// (`guard-`, `hermes-*`, `H0`) or ALL; repeatable or comma-separated
        #[arg(long, value_name = "RULE")]
        select: Vec<String>,
        /// Never report these rules (names as for --select)
        #[arg(long, value_name = "RULE")]
        ignore: Vec<String>,
        /// Read this settings file instead of the skillscope.toml found
        /// above the checked folder
        #[arg(long, value_name = "PATH", conflicts_with = "isolated")]
        config: Option<PathBuf>,
        /// Read no settings file
        #[arg(long)]
        isolated: bool,
        /// text, json, github (workflow annotations), sarif (code scanning) or markdown
        #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
        format: Option<crate::engine::check::format::Format>,
        /// markdown: keep the comment under N characters, leaving out the
        /// files that do not fit and saying so (default 65536, GitHub's
        /// limit; 0: no limit)
        #[arg(long, value_name = "N")]
        max_chars: Option<usize>,
        /// Exit 0 even when there are findings
        #[arg(long)]
        exit_zero: bool,
        /// List every rule with its code and severity, and check nothing
        #[arg(long)]
        list_rules: bool,
    },
}

/// `--max-chars`: GitHub's limit unless given; 0 is no limit.
pub(crate) fn comment_limit(max_chars: Option<usize>) -> Option<usize> {
    match max_chars {
        None => Some(crate::engine::comment::GITHUB_COMMENT_LIMIT),
        Some(0) => None,
        Some(n) => Some(n),
    }
}

/// Says so when `--max-chars` is given to a format it does not apply to.
pub(crate) fn max_chars_unused(command: &str, max_chars: Option<usize>, markdown: bool) {
    if max_chars.is_some() && !markdown {
        eprintln!("skillscope: {command}: --max-chars applies to --format markdown only; ignored");
    }
}

fn parse_trust(s: &str) -> Result<&'static str, String> {
    crate::engine::scan::parse_trust_level(s)
        .ok_or_else(|| format!("unknown trust level '{s}' (use {})", crate::engine::scan::TRUST_LEVELS.join(", ")))
}

fn parse_format(s: &str) -> Result<crate::engine::check::format::Format, String> {
    crate::engine::check::format::Format::parse(s)
        .ok_or_else(|| format!("unknown format '{s}' (use {})", crate::engine::check::format::Format::NAMES.join(", ")))
}

fn parse_severity(s: &str) -> Result<Severity, String> {
    Severity::parse(s).ok_or_else(|| format!("unknown severity '{s}' (use error, warning or info)"))
}

/// `prompt --cache`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum CacheArg {
    Auto,
    Cold,
    Warm,
}

fn parse_size(s: &str) -> Result<(u16, u16), String> {
    let (w, h) = s.split_once('x').ok_or("expected WIDTHxHEIGHT, e.g. 120x40")?;
    let n = |v: &str| v.parse::<u16>().map_err(|_| format!("not a size: {s}"));
    Ok((n(w)?, n(h)?))
}

fn parse_backend(s: &str) -> Result<Backend, String> {
    Backend::parse(s).ok_or_else(|| format!("unknown backend '{s}' (valid: {})", Backend::valid_names()))
}

fn parse_os(s: &str) -> Result<Os, String> {
    Os::parse(s).ok_or_else(|| format!("unknown platform '{s}' (use linux, macos or windows)"))
}

/// The home a command or the browser reads, and what keeps it on disk.
pub struct Session {
    pub engine: Engine,
    /// How the path given is shown, when it is not a Hermes home: said once.
    pub note: Option<String>,
    /// The embedded demo home, when it is what is shown.
    pub demo: Option<DemoHome>,
    /// The folder a stand-in home lists, when a folder of skills was given.
    pub folder: Option<PathBuf>,
    _stand_in: Option<StandInHome>,
}

/// Why the home or the layers the flags name cannot be opened.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    #[error("cannot write the demo home: {0}")]
    Demo(std::io::Error),
    #[error("{}: not a folder (pass a Hermes home, a folder of skills or one skill's folder)", .0.display())]
    NotADirectory(PathBuf),
    #[error("{}: no Hermes home here (pass --home PATH, set HERMES_HOME, or try --demo)", .0.display())]
    NoHome(PathBuf),
    #[error("{}: no Hermes home here, but the current folder holds skills: pass --home . to read them", .0.display())]
    NoHomeButSkillsHere(PathBuf),
    #[error("{}: no such folder", .0.display())]
    NoSuchFolder(PathBuf),
    #[error("{}: cannot read the Hermes home: {source}", .path.display())]
    Unreadable { path: PathBuf, source: std::io::Error },
    #[error("{}: cannot set up a home to show it in: {source}", .path.display())]
    StandIn { path: PathBuf, source: std::io::Error },
    #[error(transparent)]
    Backend(#[from] crate::engine::sandbox::UnknownBackend),
    #[error("--db needs --user: database skills are read for one user")]
    DbWithoutUser,
    #[error(transparent)]
    Layer(#[from] crate::engine::layers::LayerError),
    /// Parsed here, not by clap, whose message would repeat a password.
    #[error(transparent)]
    DbLocation(#[from] crate::engine::db::LocationError),
}

/// Opens the home the flags name: `--demo`, else `--home` or the browser's
/// PATH (a Hermes home, a folder of skills or one skill folder), else
/// `$HERMES_HOME`, else `~/.hermes`; with `demo_if_missing`, the demo home
/// when none of these exists.
pub fn open_session(global: &GlobalArgs, mut env: Env, demo_if_missing: bool) -> Result<Session, SessionError> {
    if let Some(os) = global.platform {
        env.os = os;
    }
    let root = resolve_home_path(global.home.as_deref(), &env);
    let use_demo = global.demo || (demo_if_missing && global.home.is_none() && !root.exists());
    let (root, note, demo, stand_in) = if use_demo {
        // Marks since a revision need the demo kept in git: with `--since`,
        // and in the browser, where `D` asks for them (plain when git is
        // not installed).
        let demo = match (global.since.is_some(), demo_if_missing) {
            (true, _) => DemoHome::create_in_git(),
            (false, true) => DemoHome::create_in_git().or_else(|_| DemoHome::create()),
            (false, false) => DemoHome::create(),
        };
        let demo = demo.map_err(SessionError::Demo)?;
        (demo.home(), None, Some(demo), None)
    } else {
        match check_home_dir(&root) {
            // A folder given that is not there is a typo, not a home to make.
            Err(SessionError::NoHome(path)) if global.home.is_some() => return Err(SessionError::NoSuchFolder(path)),
            Err(SessionError::NoHome(path)) => {
                let skills_here = std::env::current_dir().is_ok_and(|cwd| crate::open::holds_skill_md(&cwd));
                return Err(match skills_here {
                    true => SessionError::NoHomeButSkillsHere(path),
                    false => SessionError::NoHome(path),
                });
            }
            other => other?,
        }
        match crate::open::classify(&root) {
            FolderKind::Home => (root, None, None, None),
            kind => {
                let stand_in = StandInHome::create(&root, kind)
                    .map_err(|source| SessionError::StandIn { path: root.clone(), source })?;
                (stand_in.home(), Some(stand_in.note()), None, Some(stand_in))
            }
        }
    };
    let options = Options {
        session_id: global.session_id.clone(),
        allow_inline_shell: global.inline_shell,
        backend: global.backend.unwrap_or_default(),
        remote_home: global.remote_home.clone(),
        hermes_paths: global.hermes_paths,
    };
    let mut engine = Engine::new(root, env, options);
    if global.backend.is_none() {
        engine.options.backend = default_backend(&engine.home, &engine.env)?;
    }
    let folder = stand_in.as_ref().map(|s| s.folder().to_path_buf());
    Ok(Session { engine, note, demo, folder, _stand_in: stand_in })
}

/// `; did you mean the subcommand `check`?` when the folder the browser was
/// given does not exist and is a word a subcommand's name is close to.
fn subcommand_meant(given: Option<&std::path::Path>) -> Option<String> {
    use clap::CommandFactory;
    let word = given.filter(|p| !p.exists())?.to_str().filter(|w| !w.contains('/'))?;
    let cli = Cli::command();
    let (distance, nearest) =
        cli.get_subcommands().map(|c| (crate::engine::words::edit_distance(word, c.get_name()), c.get_name())).min()?;
    (distance <= 2).then(|| format!("; did you mean the subcommand `{nearest}`? (skillscope --help lists them)"))
}

/// Explains why `root` cannot be read as a home, if it cannot.
fn check_home_dir(root: &std::path::Path) -> Result<(), SessionError> {
    let unreadable = |source| SessionError::Unreadable { path: root.to_path_buf(), source };
    match std::fs::metadata(root) {
        Ok(m) if m.is_dir() => {}
        Ok(_) => return Err(SessionError::NotADirectory(root.to_path_buf())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(SessionError::NoHome(root.to_path_buf())),
        Err(e) => return Err(unreadable(e)),
    }
    std::fs::read_dir(root).map(drop).map_err(unreadable)
}

/// A layer named on the command line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SourceArg {
    User,
    Shared,
    Db,
}

impl SourceArg {
    fn source(self) -> Source {
        match self {
            SourceArg::User => Source::User,
            SourceArg::Shared => Source::Shared,
            SourceArg::Db => Source::Db,
        }
    }
}

/// The layers the flags turn on, if any.
pub fn layers_for(global: &GlobalArgs) -> Result<Option<Layers>, SessionError> {
    match (&global.user, &global.db) {
        (None, Some(_)) => Err(SessionError::DbWithoutUser),
        (None, None) => Ok(None),
        (Some(user), db) => {
            valid_user_id(user)?;
            let db = db.as_deref().map(DbLocation::parse).transpose()?;
            Ok(Some(Layers { user: user.clone(), db, org_id: global.org_id.clone() }))
        }
    }
}

/// Opens the terminal browser: on the home the flags or environment name,
/// or on the embedded demo home when none of them exists.
fn browse(global: &GlobalArgs) -> i32 {
    let session = match open_session(global, Env::from_process(), true) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("skillscope: {msg}{}", subcommand_meant(global.home.as_deref()).unwrap_or_default());
            return EXIT_USAGE;
        }
    };
    let mut layers = match layers_for(global) {
        Ok(l) => l,
        Err(msg) => {
            eprintln!("skillscope: {msg}");
            return EXIT_USAGE;
        }
    };
    // The demo shows the layers unless the user picked their own; it is a
    // throwaway copy, so every skill in it may be edited (org 0), unless
    // `--org-id` asks to see what another organisation may do.
    if let (Some(d), None) = (&session.demo, &layers) {
        let user = crate::demo::USER.to_owned();
        let org_id = Some(global.org_id.clone().unwrap_or_else(|| crate::engine::layers::OWNER_ORG.to_owned()));
        layers = Some(Layers { user, db: Some(DbLocation::Sqlite(d.db())), org_id });
    }
    let banner = match (&session.demo, &session.note) {
        (Some(_), _) => Some(crate::demo::BANNER.to_owned()),
        (None, Some(note)) => Some(note.clone()),
        (None, None) => None,
    };
    let Session { engine, demo, folder, _stand_in, .. } = session;
    let setup = crate::tui::Setup { layers, banner, folder, since: global.since.clone() };
    if let Some((w, h)) = global.print_frame {
        print!("{}", crate::tui::first_frame(engine, setup, w, h));
        return EXIT_OK;
    }
    const NEEDS_A_TERMINAL: &str =
        "the browser needs a terminal; in a script, run a subcommand such as `skillscope list` (skillscope --help lists them)";
    if !std::io::IsTerminal::is_terminal(&std::io::stdout()) {
        eprintln!("skillscope: {NEEDS_A_TERMINAL}");
        return EXIT_USAGE;
    }
    let result = crate::tui::run(engine, setup);
    drop(demo);
    drop(_stand_in);
    match result {
        Ok(()) => EXIT_OK,
        // No terminal to take (none controls the process).
        Err(e) if e.raw_os_error() == Some(libc::ENXIO) => {
            eprintln!("skillscope: {NEEDS_A_TERMINAL} ({e})");
            EXIT_USAGE
        }
        Err(e) => {
            eprintln!("skillscope: terminal error: {e}");
            EXIT_USAGE
        }
    }
}

fn scan_origin(source: Option<String>, trust: Option<&'static str>) -> crate::engine::scan::Origin {
    match (trust, source) {
        (Some(level), _) => crate::engine::scan::Origin::Trust(level),
        (None, source) => crate::engine::scan::Origin::Source(source.unwrap_or_else(|| "community".into())),
    }
}

/// `scan PATH`, outside any home.
fn scan_path(
    path: &Path,
    source: &Option<String>,
    trust: Option<&'static str>,
    force: bool,
    all: bool,
    json: bool,
) -> i32 {
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let origin = scan_origin(source.clone(), trust);
    let result = scan::run(path, &origin, force, all, json, &mut out);
    flushed(result, &mut out)
}

/// The exit status of a command's `result` once its output is flushed.
fn flushed(result: std::io::Result<i32>, out: &mut dyn std::io::Write) -> i32 {
    // A closed pipe (`| head`) is not an error worth reporting: a verdict
    // already made stands ([`output::verdict`]), else the answer is a
    // success cut short.
    match result.and_then(|code| output::verdict(out.flush(), code)) {
        Ok(code) => code,
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => EXIT_OK,
        Err(e) => {
            eprintln!("skillscope: {e}");
            EXIT_USAGE
        }
    }
}

/// `--version`: skillscope's version and the Hermes release it models,
/// then the Hermes found on PATH (read about, never run) and how it stands
/// to that release.
fn print_version() -> i32 {
    use crate::engine::hermes_install::{find, version_line, MODELLED_VERSION};
    let text = format!(
        "skillscope {} (models Hermes Agent {MODELLED_VERSION})\n{}\n",
        env!("CARGO_PKG_VERSION"),
        version_line(find().as_ref())
    );
    let mut out = std::io::stdout().lock();
    let written = std::io::Write::write_all(&mut out, text.as_bytes());
    flushed(written.map(|()| EXIT_OK), &mut out)
}

/// Parses `args`, runs the subcommand, and returns the exit status.
pub fn run<I: IntoIterator<Item = OsString>>(args: I) -> i32 {
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) if e.kind() == clap::error::ErrorKind::DisplayVersion => return print_version(),
        Err(e) => {
            let code = if e.use_stderr() { EXIT_USAGE } else { EXIT_OK };
            let _ = e.print();
            return code;
        }
    };
    let mut global = cli.global;
    if let Some(path) = cli.path {
        if global.home.is_some() {
            eprintln!("skillscope: give the home once: as PATH or as --home");
            return EXIT_USAGE;
        }
        global.home = Some(path);
    }
    let Some(command) = cli.command else {
        // `--since` compares with a revision of the repository you are in:
        // without a home given, the browser opens what `diff` would read.
        if global.since.is_some() && global.home.is_none() && !global.demo {
            global.home = match diff::current_repository_folder() {
                Ok(folder) => folder,
                Err(e) => {
                    eprintln!("skillscope: --since: {e}");
                    return EXIT_USAGE;
                }
            };
            // Else the Hermes home, if there is one: not the demo, which is
            // no repository of the user's.
            let home = resolve_home_path(None, &Env::from_process());
            if global.home.is_none() && !home.exists() {
                let here = std::env::current_dir().map(|d| d.display().to_string()).unwrap_or_default();
                eprintln!(
                    "skillscope: --since: {here} is in no git repository of skills, and there is no Hermes home at \
                     {}: run it inside a repository of skills, or name one (skillscope --since REV PATH)",
                    home.display()
                );
                return EXIT_USAGE;
            }
        }
        // A revision's copy goes where the working tree's walk does not
        // see it.
        let repo = global
            .since
            .as_ref()
            .and(global.home.as_deref())
            .and_then(|home| crate::engine::diff::git::Repo::discover(&home.canonicalize().ok()?).ok());
        if let Some(repo) = repo {
            crate::scratch::keep_out_of(&repo.root);
        }
        return browse(&global);
    };
    // The rule list needs no home.
    if let Command::Check { list_rules: true, .. } = &command {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        let result = check::list_rules(global.json, &mut out);
        return flushed(result, &mut out);
    }
    // Two outputs asked for at once: neither is guessed.
    if let Command::Check { format: Some(format), .. } = &command {
        use crate::engine::check::format::Format;
        if global.json && *format != Format::Json {
            let name = Format::NAMES.iter().copied().find(|n| Format::parse(n) == Some(*format)).unwrap_or_default();
            eprintln!("skillscope: check: --json and --format {name} ask for two outputs: give one");
            return EXIT_USAGE;
        }
    }
    // A path needs no home: a skills repository's CI scans its folders.
    if let Command::Scan { target, source, trust, force, all } = &command {
        if Path::new(target).exists() {
            return scan_path(Path::new(target), source, *trust, *force, *all, global.json);
        }
        // A path that is not there is a typo; `devops/deploy` may be a
        // skill's categorized name, looked up in the home below.
        if target.starts_with('/') || target.starts_with("./") || target.starts_with("../") {
            eprintln!("skillscope: {}: no such file or folder", crate::sanitize::clean_line(target));
            return EXIT_USAGE;
        }
    }
    // A diff opens a home for each state it compares.
    if let Command::Diff(args) = &command {
        return diff::run(&global, args);
    }
    // The encoding loads (a tenth of a second) while the home is read.
    if let Command::Cost { tokenizer, .. } = &command {
        tokenizer.prepare_in_background();
    }
    let session = match open_session(&global, Env::from_process(), false) {
        Ok(s) => s,
        Err(msg) => {
            eprintln!("skillscope: {msg}");
            return EXIT_USAGE;
        }
    };
    if let Some(note) = &session.note {
        eprintln!("skillscope: note: {note}");
    }
    let engine = &session.engine;
    let layers = match layers_for(&global) {
        Ok(l) => l,
        Err(msg) => {
            eprintln!("skillscope: {msg}");
            return EXIT_USAGE;
        }
    };
    let db = layers.as_ref().and_then(|l| l.db.as_ref()).map(|p| read_db(p, layers.as_ref().map_or("", |l| &l.user)));
    if let Some(problem) = db.as_ref().and_then(|d| d.problem.as_ref()) {
        eprintln!("skillscope: database skills unavailable: {problem}");
    }
    if let Some(note) = layers.as_ref().and_then(|l| l.missing_user_dir(&engine.home.root)) {
        eprintln!("skillscope: note: {note}");
    }
    let db = db.unwrap_or_default();
    if let Some(name) = unlayered(&command).filter(|_| global.user.is_some()) {
        eprintln!("skillscope: note: `{name}` answers for the home's own skill dirs: --user and --db apply to list, view, check and the browser");
    }
    let layered = layers.as_ref().map(|l| (l, &db));
    let json = global.json;
    let mut out = std::io::BufWriter::with_capacity(64 * 1024, std::io::stdout().lock());
    let result = match command {
        Command::List { category } => list::run(engine, layered, category.as_deref(), json, &mut out),
        Command::View { name, file_path, source } => {
            if source.is_some() && layered.is_none() {
                eprintln!("skillscope: --source needs --user: layers are off");
                return EXIT_USAGE;
            }
            let only = source.map(SourceArg::source);
            skills::view(engine, layered, only, &name, file_path.as_deref(), json, &mut out)
        }
        // Answered before a home is opened; the same answer here.
        Command::Diff(args) => Ok(diff::run(&global, &args)),
        Command::Prompt { index } => prompt::run(engine, &index, json, &mut out),
        Command::Cost { index, tokenizer, loaded } => cost::run(engine, &index, tokenizer, loaded, json, &mut out),
        Command::Why { name, index } => why::run(engine, &name, &index, json, &mut out),
        Command::Commands => commands::run(engine, json, &mut out),
        Command::Invoke { key, instruction } => skills::invoke(engine, &key, &instruction, json, &mut out),
        Command::Preload { names } => skills::preload(engine, &names, json, &mut out),
        Command::Bundles => bundles::run(engine, json, &mut out),
        Command::Mounts => mounts::run(engine, json, &mut out),
        Command::Check {
            names,
            min_severity,
            trust,
            select,
            ignore,
            config,
            isolated,
            format,
            max_chars,
            exit_zero,
            list_rules,
        } => {
            debug_assert!(!list_rules, "answered before a home is opened");
            max_chars_unused("check", max_chars, format == Some(crate::engine::check::format::Format::Markdown));
            let overrides =
                crate::engine::check::run::Overrides { min_severity, trust, select, ignore, config, isolated };
            let args =
                check::CheckArgs { names, overrides, format, comment_limit: comment_limit(max_chars), exit_zero };
            let checked = session.folder.clone().unwrap_or_else(|| engine.home.root.clone());
            check::run(engine, layered, &checked, &args, json, &mut out)
        }
        Command::Lifecycle { name, now } => lifecycle::run(engine, name.as_deref(), now, json, &mut out),
        Command::Scan { target, source, trust, force, all } => match scan::skill_folder(engine, &target) {
            Ok(dir) => scan::run(&dir, &scan_origin(source, trust), force, all, json, &mut out),
            Err(msg) => {
                eprintln!("skillscope: {msg}");
                return EXIT_USAGE;
            }
        },
    };
    flushed(result, &mut out)
}
