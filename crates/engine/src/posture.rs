//! The posture Hermes takes for a session (`agent/coding_context.py`): the
//! coding posture in a code workspace, and, under the opt-in `focus` mode of
//! `agent.coding_context`, the skill categories the system prompt's index
//! demotes to a names-only line (`coding_compact_skill_categories`).

use crate::home::Home;
use crate::value::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// `_NON_CODING_SKILL_CATEGORIES`: demoted under `focus` in a code workspace.
pub const NON_CODING_CATEGORIES: [&str; 18] = [
    "apple",
    "communication",
    "cooking",
    "creative",
    "email",
    "finance",
    "gaming",
    "gifs",
    "health",
    "media",
    "music",
    "note-taking",
    "productivity",
    "shopping",
    "smart-home",
    "social-media",
    "travel",
    "yuanbao",
];

/// `INTERACTIVE_CODING_PLATFORMS`: surfaces where `auto` and `focus` may
/// take the coding posture.
const INTERACTIVE_PLATFORMS: [&str; 5] = ["cli", "tui", "acp", "desktop", ""];

/// `_PROJECT_MARKERS`: a folder holding one is a project root.
const PROJECT_MARKERS: &[&str] = &[
    "pyproject.toml",
    "setup.py",
    "setup.cfg",
    "requirements.txt",
    "package.json",
    "tsconfig.json",
    "deno.json",
    "Cargo.toml",
    "go.mod",
    "pom.xml",
    "build.gradle",
    "build.gradle.kts",
    "Gemfile",
    "composer.json",
    "mix.exs",
    "pubspec.yaml",
    "CMakeLists.txt",
    "Makefile",
    "Dockerfile",
    "AGENTS.md",
    "CLAUDE.md",
    ".cursorrules",
];

/// `_CODE_EXTENSIONS`: a git repository holding one of these near its root
/// is a code workspace.
const CODE_EXTENSIONS: &[&str] = &[
    ".py", ".pyi", ".ipynb", ".js", ".jsx", ".ts", ".tsx", ".mjs", ".cjs", ".go", ".rs", ".java", ".kt", ".kts",
    ".scala", ".rb", ".php", ".c", ".h", ".cc", ".cpp", ".hpp", ".cs", ".swift", ".m", ".mm", ".dart", ".ex", ".exs",
    ".lua", ".sh", ".bash", ".zsh", ".sql", ".vue", ".svelte", ".r", ".jl", ".hs", ".clj", ".erl", ".pl",
];

/// `_CODE_SCAN_SKIP_DIRS`.
const CODE_SCAN_SKIP_DIRS: &[&str] =
    &[".git", "node_modules", "venv", ".venv", "__pycache__", "dist", "build", "target", ".next", ".turbo", "vendor"];

/// `_CODE_SCAN_MAX_ENTRIES`.
const CODE_SCAN_MAX_ENTRIES: usize = 500;

/// `agent.coding_context`, normalised as `_coding_mode` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodingMode {
    Auto,
    Focus,
    On,
    Off,
}

impl CodingMode {
    /// `_coding_mode(load_config())`; `None` where Python raises (an `agent`
    /// value that is truthy but not a mapping), which the prompt builder
    /// catches: nothing is then demoted.
    pub fn of_config(home: &Home) -> Option<CodingMode> {
        let raw = match home.merged_config.get("agent").filter(|a| a.truthy()) {
            None => None,
            Some(Value::Map(agent)) => agent.get("coding_context").cloned(),
            Some(_) => return None,
        };
        let text = raw.map_or_else(|| "auto".to_owned(), |v| v.py_str());
        Some(CodingMode::parse(&text))
    }

    /// The modes and their aliases, as `_coding_mode` reads them.
    pub fn parse(text: &str) -> CodingMode {
        match crate::py::py_strip(text).to_lowercase().as_str() {
            "focus" | "strict" | "lean" => CodingMode::Focus,
            "on" | "true" | "yes" | "1" | "always" => CodingMode::On,
            "off" | "false" | "no" | "0" | "never" => CodingMode::Off,
            _ => CodingMode::Auto,
        }
    }
}

/// Where the workspace checks look, besides the working directory.
#[derive(Debug, Clone, Default)]
pub struct Surroundings {
    /// `Path.home().resolve()`: never a project root.
    pub home: Option<PathBuf>,
    /// `tempfile.gettempdir()` resolved: never a project root.
    pub temp: Option<PathBuf>,
}

impl Surroundings {
    /// The user's home and the temporary folder of this process.
    pub fn of_process(env: &crate::env::Env) -> Surroundings {
        let temp = ["TMPDIR", "TEMP", "TMP"]
            .iter()
            .find_map(|k| env.non_empty(k).map(PathBuf::from))
            .filter(|p| p.is_dir())
            .unwrap_or_else(|| PathBuf::from("/tmp"));
        Surroundings {
            home: env.home_dir().map(|h| crate::paths::resolve(&h)),
            temp: Some(crate::paths::resolve(&temp)),
        }
    }
}

/// The posture resolved for one session (`resolve_runtime_mode`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Posture {
    pub mode: CodingMode,
    /// The coding profile applies (`is_coding`).
    pub coding: bool,
}

impl Posture {
    /// `resolve_runtime_mode(platform, cwd)` under `mode`.
    pub fn resolve(mode: CodingMode, platform: &str, cwd: &Path, around: &Surroundings) -> Posture {
        let platform = crate::py::py_strip(platform).to_lowercase();
        let coding = match mode {
            CodingMode::Off => false,
            CodingMode::On => true,
            _ if !platform.is_empty() && !INTERACTIVE_PLATFORMS.contains(&platform.as_str()) => false,
            _ => is_code_workspace(cwd, around),
        };
        Posture { mode, coding }
    }

    /// `compact_skill_categories()`: the top-level categories the index
    /// shows names-only, under `focus` in a code workspace alone.
    pub fn compact_categories(&self) -> BTreeSet<String> {
        if !self.coding || self.mode != CodingMode::Focus {
            return BTreeSet::new();
        }
        NON_CODING_CATEGORIES.iter().map(|c| (*c).to_owned()).collect()
    }
}

/// The categories the index of a session in `cwd` shows names-only
/// (`coding_compact_skill_categories(platform, cwd)`): under `mode`, else
/// under the home's `agent.coding_context`; the platform is the session's
/// (`HERMES_PLATFORM`), else the CLI's.
pub fn compact_categories(engine: &crate::Engine, mode: Option<CodingMode>, cwd: &Path) -> BTreeSet<String> {
    let Some(mode) = mode.or_else(|| CodingMode::of_config(&engine.home)) else {
        return BTreeSet::new();
    };
    let platform = engine.env.platform_scope().unwrap_or("cli");
    Posture::resolve(mode, platform, cwd, &Surroundings::of_process(&engine.env)).compact_categories()
}

/// Why the focus posture demotes nothing for a session in `cwd`, said for
/// a person: the platform takes no coding posture, or `cwd` is no code
/// workspace. None where it does demote.
pub fn why_focus_demotes_nothing(engine: &crate::Engine, cwd: &Path) -> Option<String> {
    let platform = engine.env.platform_scope().unwrap_or("cli");
    let around = Surroundings::of_process(&engine.env);
    if Posture::resolve(CodingMode::Focus, platform, cwd, &around).coding {
        return None;
    }
    let platform = crate::py::py_strip(platform).to_lowercase();
    Some(match !platform.is_empty() && !INTERACTIVE_PLATFORMS.contains(&platform.as_str()) {
        true => format!("the platform `{platform}` takes no coding posture"),
        false => format!(
            "{} is no code workspace (no project marker within six folders up, no git repository holding code)",
            cwd.display()
        ),
    })
}

/// `_detect_profile_name`'s workspace test: a project root within six
/// folders up, else a git repository (not the home's dotfiles) holding code.
pub fn is_code_workspace(cwd: &Path, around: &Surroundings) -> bool {
    if marker_root(cwd, around).is_some() {
        return true;
    }
    match git_root(cwd) {
        Some(root) if Some(&root) == around.home.as_ref() => false,
        Some(root) => has_code_files(&root),
        None => false,
    }
}

/// `_marker_root`: the nearest of the folder and six above it holding a
/// project marker, the home and the temporary folder passed over.
fn marker_root(cwd: &Path, around: &Surroundings) -> Option<PathBuf> {
    let current = crate::paths::resolve(cwd);
    for (depth, folder) in current.ancestors().enumerate() {
        if depth > 6 {
            break;
        }
        if Some(folder) == around.home.as_deref() || Some(folder) == around.temp.as_deref() {
            continue;
        }
        if PROJECT_MARKERS.iter().any(|m| crate::paths::exists(&folder.join(m))) {
            return Some(folder.to_path_buf());
        }
    }
    None
}

/// `_git_root`: the nearest folder at or above `cwd` with a `.git`.
fn git_root(cwd: &Path) -> Option<PathBuf> {
    let current = crate::paths::resolve(cwd);
    current.ancestors().find(|f| crate::paths::exists(&f.join(".git"))).map(Path::to_path_buf)
}

/// `_has_code_files`: a source file in the folder or one level below, in
/// the first 500 entries `os.scandir` gives (the folder's own first).
fn has_code_files(root: &Path) -> bool {
    let mut seen = 0usize;
    let mut stack = vec![(root.to_path_buf(), true)];
    while let Some((folder, is_root)) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else { continue };
        for entry in entries.flatten() {
            seen += 1;
            if seen > CODE_SCAN_MAX_ENTRIES {
                return false;
            }
            let name = entry.file_name().to_string_lossy().into_owned();
            // `DirEntry.is_file()` / `is_dir()` follow symlinks.
            let Ok(meta) = std::fs::metadata(entry.path()) else { continue };
            if meta.is_file() {
                if CODE_EXTENSIONS.contains(&extension_lower(&name).as_str()) {
                    return true;
                }
            } else if is_root
                && meta.is_dir()
                && !CODE_SCAN_SKIP_DIRS.contains(&name.as_str())
                && !name.starts_with('.')
            {
                stack.push((entry.path(), false));
            }
        }
    }
    false
}

/// `os.path.splitext(name)[1].lower()`: from the last dot, unless the name
/// is all leading dots before it.
fn extension_lower(name: &str) -> String {
    let Some(dot) = name.rfind('.') else { return String::new() };
    if name[..dot].chars().all(|c| c == '.') {
        return String::new();
    }
    name[dot..].to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn modes_read_as_hermes_reads_them() {
        for (text, mode) in [
            ("focus", CodingMode::Focus),
            (" Lean ", CodingMode::Focus),
            ("strict", CodingMode::Focus),
            ("True", CodingMode::On),
            ("always", CodingMode::On),
            ("0", CodingMode::Off),
            ("never", CodingMode::Off),
            ("auto", CodingMode::Auto),
            ("whatever", CodingMode::Auto),
            ("None", CodingMode::Auto),
        ] {
            assert_eq!(CodingMode::parse(text), mode, "{text}");
        }
    }

    #[test]
    fn splitext_keeps_leading_dots() {
        assert_eq!(extension_lower("main.RS"), ".rs");
        assert_eq!(extension_lower(".bashrc"), "");
        assert_eq!(extension_lower("..x"), "");
        assert_eq!(extension_lower("a.b.py"), ".py");
        assert_eq!(extension_lower("Makefile"), "");
    }

    #[test]
    fn focus_demotes_only_in_a_code_workspace() {
        let dir = tempfile::tempdir().unwrap();
        let around = Surroundings { home: None, temp: None };
        let plain = dir.path().join("notes");
        std::fs::create_dir_all(plain.join(".git")).unwrap();
        std::fs::write(plain.join("todo.md"), "x").unwrap();
        assert!(Posture::resolve(CodingMode::Focus, "cli", &plain, &around).compact_categories().is_empty());
        std::fs::write(plain.join("run.sh"), "x").unwrap();
        let focus = Posture::resolve(CodingMode::Focus, "cli", &plain, &around);
        assert!(focus.coding && focus.compact_categories().contains("music"));
        assert!(Posture::resolve(CodingMode::Auto, "cli", &plain, &around).compact_categories().is_empty());
        assert!(!Posture::resolve(CodingMode::Focus, "telegram", &plain, &around).coding);
        assert!(Posture::resolve(CodingMode::On, "telegram", &plain, &around).coding);
    }
}
