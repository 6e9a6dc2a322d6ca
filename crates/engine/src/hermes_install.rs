//! Which Hermes Agent is installed on this machine, found without running
//! it: Hermes' start-up writes into its home, so it is only read about.
//!
//! The `hermes` command is looked up on `PATH` as a shell would, followed
//! through symlinks (pipx and `uv tool` link it from `~/.local/bin` into a
//! virtual environment, Hermes' installer from its checkout's venv). A pip
//! console script names its Python on the shebang line; the environment of
//! that Python (or of the script's own folder) holds
//! `lib/python3.X/site-packages/hermes_agent-<version>.dist-info`, whose
//! `METADATA` has the version. An editable install from a source checkout
//! points at the checkout (`direct_url.json`, or setuptools'
//! `__editable__` finder), and the checkout's `pyproject.toml` says the
//! version of the code that actually runs. A checkout's own launcher or
//! venv is recognised by the `pyproject.toml` beside it.
//!
//! Each step lists at most one folder or reads one small file; anything
//! missing, unreadable or odd means "not found" or "version unknown", never
//! an error.

use serde::Deserialize;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

/// The Hermes Agent release skillscope models.
pub const MODELLED_VERSION: &str = "0.19.0";

/// At most this much of a script, `METADATA`, `direct_url.json` or
/// finder module is read: what is looked for sits at their start.
const HEAD_BYTES: u64 = 64 * 1024;
/// At most this much of a `pyproject.toml` (Hermes' own is about 40 KB).
const PYPROJECT_BYTES: u64 = 1024 * 1024;

/// A Hermes Agent installation found on `PATH`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HermesInstall {
    /// The `hermes` command, as `PATH` names it.
    pub entry: PathBuf,
    /// Its version, when the installation says it.
    pub version: Option<String>,
    /// The file the version was read from: a `METADATA`, `PKG-INFO` or a
    /// checkout's `pyproject.toml`.
    pub version_from: Option<PathBuf>,
    /// The source checkout the code runs from, for an editable install or a
    /// checkout's own launcher.
    pub checkout: Option<PathBuf>,
}

/// How an installed version stands to [`MODELLED_VERSION`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// A 0.19.x release: skillscope's answers are Hermes'.
    Matches,
    Newer,
    Older,
    /// No version, or one that does not read as a release number.
    Unknown,
}

/// Looks for Hermes on the process's `PATH`.
pub fn find() -> Option<HermesInstall> {
    find_on_path(&std::env::var_os("PATH")?)
}

/// Looks for Hermes on `path` (a `PATH` value).
pub fn find_on_path(path: &OsStr) -> Option<HermesInstall> {
    // An empty PATH entry means the current folder to a shell; a
    // version check has no business there.
    let entry = std::env::split_paths(path)
        .filter(|dir| dir.is_absolute())
        .map(|dir| dir.join("hermes"))
        .find(|candidate| is_executable_file(candidate))?;
    Some(inspect(entry))
}

/// The second line of `skillscope --version`.
pub fn version_line(found: Option<&HermesInstall>) -> String {
    found.map_or_else(|| "Hermes: not found on PATH".to_owned(), HermesInstall::describe)
}

impl HermesInstall {
    pub fn relation(&self) -> Relation {
        self.version.as_deref().map_or(Relation::Unknown, relation_to_model)
    }

    /// Where it lives, for a person: the command, and the checkout when
    /// the code runs from one.
    fn place(&self) -> String {
        match &self.checkout {
            Some(checkout) => format!("{} (source checkout {})", self.entry.display(), checkout.display()),
            None => self.entry.display().to_string(),
        }
    }

    /// One sentence: which version is where, and how it stands to the
    /// modelled one.
    pub fn describe(&self) -> String {
        let place = self.place();
        let Some(version) = &self.version else {
            return format!(
                "Hermes Agent at {place}: its version could not be read (no hermes_agent dist-info beside it)"
            );
        };
        let how = match self.relation() {
            Relation::Matches => {
                return format!("Hermes Agent {version} at {place}: matches the modelled {MODELLED_VERSION}")
            }
            Relation::Newer => "newer than",
            Relation::Older => "older than",
            Relation::Unknown => "not",
        };
        format!("Hermes Agent {version} at {place}: {how} the modelled {MODELLED_VERSION}; answers may differ")
    }

    /// For the status line: `Hermes 0.19.0`, or `Hermes 0.20.1 ≠ 0.19.0`
    /// when it is not the modelled release; nothing without a version.
    pub fn short_label(&self) -> Option<String> {
        let version = self.version.as_ref()?;
        Some(match self.relation() {
            Relation::Matches => format!("Hermes {version}"),
            _ => format!("Hermes {version} ≠ {MODELLED_VERSION}"),
        })
    }

    /// The browser's one-time warning, when the version is known and is
    /// not the modelled release.
    pub fn warning(&self) -> Option<String> {
        let version = self.version.as_ref()?;
        (self.relation() != Relation::Matches).then(|| {
            format!(
                "Hermes Agent {version} is installed at {}; skillscope models {MODELLED_VERSION}, so answers may differ",
                self.place()
            )
        })
    }
}

/// A file the current user may execute, as a shell's `PATH` lookup wants.
fn is_executable_file(path: &Path) -> bool {
    let Ok(meta) = fs::metadata(path) else { return false };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}

/// Everything the files around `entry` say about it.
fn inspect(entry: PathBuf) -> HermesInstall {
    let mut found = HermesInstall { entry, version: None, version_from: None, checkout: None };
    // A loop or a dangling link leaves the entry as PATH names it.
    let resolved = fs::canonicalize(&found.entry).unwrap_or_else(|_| found.entry.clone());
    let interpreter = script_interpreter(&resolved);
    // The interpreter's environment first (a venv's `bin/python`), then the
    // prefixes the script itself sits in (`~/.local/bin` of `pip --user`,
    // `/usr/local/bin`). The interpreter is not resolved: a venv's python
    // links out of the venv.
    let mut prefixes: Vec<PathBuf> = Vec::new();
    let interpreter_prefix = interpreter.as_deref().and_then(Path::parent).and_then(Path::parent);
    let script_prefixes = [resolved.parent().and_then(Path::parent), found.entry.parent().and_then(Path::parent)];
    for prefix in std::iter::once(interpreter_prefix).chain(script_prefixes).flatten() {
        if !prefixes.iter().any(|p| p == prefix) {
            prefixes.push(prefix.to_path_buf());
        }
    }
    let python = interpreter.as_deref().and_then(python_version_of);
    for prefix in &prefixes {
        for site in site_dirs(prefix, python.as_deref()) {
            if let Some(dist) = from_site_packages(&site) {
                found.version = dist.version;
                found.version_from = dist.version_from;
                found.checkout = dist.checkout;
                return found;
            }
        }
    }
    // No installed metadata: a checkout's own launcher (`checkout/hermes`)
    // or a venv inside a checkout (`checkout/.venv/bin/hermes`).
    let beside = resolved.parent().map(Path::to_path_buf);
    for dir in beside.into_iter().chain(prefixes.iter().filter_map(|p| p.parent().map(Path::to_path_buf))) {
        if let Some((version, pyproject)) = checkout_version(&dir) {
            found.version = Some(version);
            found.version_from = Some(pyproject);
            found.checkout = Some(dir);
            return found;
        }
    }
    found
}

/// The Python a script runs under, from its shebang: `#!/venv/bin/python3`,
/// or the form pip and uv write for a path with spaces or too long for a
/// shebang: `#!/bin/sh`, then `'''exec' "/path/python" "$0" "$@"` (the path
/// in double quotes for pip, single for uv, bare when it has no spaces).
/// `None` for `#!/usr/bin/env python3` (no path to go by), for a path
/// relative to the script (its own folder is searched anyway) and for
/// binaries.
fn script_interpreter(script: &Path) -> Option<PathBuf> {
    let head = read_head(script, HEAD_BYTES)?;
    let text = String::from_utf8_lossy(&head);
    let mut lines = text.lines();
    let shebang = lines.next()?.strip_prefix("#!")?.trim();
    let program = shebang.split_whitespace().next()?;
    let name = Path::new(program).file_name()?.to_string_lossy();
    if name == "sh" || name == "bash" {
        let exec = lines.next()?.trim().strip_prefix("'''exec' ")?;
        let path = match exec.chars().next()? {
            quote @ ('"' | '\'') => exec[1..].split(quote).next()?,
            _ => exec.split_whitespace().next()?,
        };
        return Path::new(path).is_absolute().then(|| PathBuf::from(path));
    }
    (name != "env").then(|| PathBuf::from(program))
}

/// `3.11` for an interpreter named `python3.11`.
fn python_version_of(interpreter: &Path) -> Option<String> {
    let name = interpreter.file_name()?.to_str()?;
    let version = name.strip_prefix("python")?;
    (version.contains('.') && version.chars().all(|c| c.is_ascii_digit() || c == '.')).then(|| version.to_owned())
}

/// The package folders of an environment: `lib/pythonX.Y/site-packages`
/// (and Debian's `dist-packages`), for the interpreter's version when its
/// name says it, else for each `python*` folder in `lib/`.
fn site_dirs(prefix: &Path, python: Option<&str>) -> Vec<PathBuf> {
    let lib = prefix.join("lib");
    let pythons: Vec<OsString> = match python {
        Some(version) => vec![OsString::from(format!("python{version}"))],
        None => match fs::read_dir(&lib) {
            Ok(entries) => {
                let mut names: Vec<OsString> = entries
                    .filter_map(Result::ok)
                    .map(|e| e.file_name())
                    .filter(|n| n.to_str().is_some_and(|n| n.starts_with("python") || n.starts_with("pypy")))
                    .collect();
                names.sort();
                names
            }
            Err(_) => Vec::new(),
        },
    };
    let mut dirs = Vec::new();
    for python in pythons {
        for packages in ["site-packages", "dist-packages"] {
            let dir = lib.join(&python).join(packages);
            if dir.is_dir() {
                dirs.push(dir);
            }
        }
    }
    dirs
}

/// What an installed distribution says about itself.
struct Distribution {
    version: Option<String>,
    version_from: Option<PathBuf>,
    checkout: Option<PathBuf>,
}

/// Hermes' distribution in one package folder (listed once), if there.
fn from_site_packages(site: &Path) -> Option<Distribution> {
    let mut metadata_dirs: Vec<(PathBuf, String)> = Vec::new();
    let mut editable_pth: Option<PathBuf> = None;
    let mut egg_link: Option<PathBuf> = None;
    for entry in fs::read_dir(site).ok()?.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let lower = name.to_ascii_lowercase();
        if lower == "hermes-agent.egg-link" || lower == "hermes_agent.egg-link" {
            egg_link = Some(entry.path());
            continue;
        }
        let Some(rest) =
            lower.strip_prefix("hermes_agent-").or_else(|| lower.strip_prefix("__editable__.hermes_agent-"))
        else {
            continue;
        };
        if lower.starts_with("__editable__") {
            if lower.ends_with(".pth") {
                editable_pth = Some(entry.path());
            }
        } else if let Some(version) = rest.strip_suffix(".dist-info").or_else(|| rest.strip_suffix(".egg-info")) {
            metadata_dirs.push((entry.path(), version.to_owned()));
        }
    }
    // Two dist-infos are left by an interrupted upgrade: the newest is the
    // one pip was installing.
    metadata_dirs.sort_by_key(|(_, version)| release(version));
    let Some((dir, named_version)) = metadata_dirs.pop() else {
        // `setup.py develop` (setuptools before PEP 660) leaves only a link
        // file naming the checkout.
        let head = read_head(&egg_link?, HEAD_BYTES)?;
        let checkout = PathBuf::from(String::from_utf8_lossy(&head).lines().next()?.trim());
        let (version, pyproject) = checkout_version(&checkout)?;
        return Some(Distribution { version: Some(version), version_from: Some(pyproject), checkout: Some(checkout) });
    };
    let metadata = ["METADATA", "PKG-INFO"].iter().map(|f| dir.join(f)).find(|f| f.is_file());
    let from_metadata = metadata.as_deref().and_then(metadata_version);
    let mut dist = match from_metadata {
        Some(version) => Distribution { version: Some(version), version_from: metadata, checkout: None },
        None => Distribution {
            version: plausible_version(&named_version).then_some(named_version),
            version_from: Some(dir.clone()),
            checkout: None,
        },
    };
    let checkout = editable_checkout(&dir)
        .or_else(|| editable_pth.as_deref().and_then(|pth| pth_checkout(site, pth)))
        .filter(|checkout| checkout.is_dir());
    if let Some(checkout) = checkout {
        // The checkout's code is what runs; its pyproject.toml moves on
        // with each pull while the dist-info keeps the install's version.
        if let Some((version, pyproject)) = checkout_version(&checkout) {
            dist.version = Some(version);
            dist.version_from = Some(pyproject);
        }
        dist.checkout = Some(checkout);
    }
    Some(dist)
}

/// The `Version:` header of a `METADATA` or `PKG-INFO` file.
fn metadata_version(file: &Path) -> Option<String> {
    let head = read_head(file, HEAD_BYTES)?;
    let text = String::from_utf8_lossy(&head);
    // The headers end at the first blank line; the description follows.
    let version = text.lines().take_while(|l| !l.trim().is_empty()).find_map(|l| l.strip_prefix("Version:"))?.trim();
    plausible_version(version).then(|| version.to_owned())
}

/// A version as PEP 440 writes them, short enough to show: digits,
/// letters and `.+-_!`. Anything else is not shown (a binary METADATA).
fn plausible_version(version: &str) -> bool {
    !version.is_empty()
        && version.len() <= 64
        && version.chars().all(|c| c.is_ascii_alphanumeric() || ".+-_!".contains(c))
        && version.chars().next().is_some_and(|c| c.is_ascii_alphanumeric())
}

#[derive(Deserialize)]
struct DirectUrl {
    url: String,
    #[serde(default)]
    dir_info: DirInfo,
}

#[derive(Default, Deserialize)]
struct DirInfo {
    #[serde(default)]
    editable: bool,
}

/// The checkout an editable install points at, from the dist-info's
/// `direct_url.json` (pip and uv write it: PEP 610).
fn editable_checkout(dist_info: &Path) -> Option<PathBuf> {
    let head = read_head(&dist_info.join("direct_url.json"), HEAD_BYTES)?;
    let direct: DirectUrl = serde_json::from_slice(&head).ok()?;
    if !direct.dir_info.editable {
        return None;
    }
    file_url_path(&direct.url)
}

/// The path of a `file://` URL, percent-decoded.
fn file_url_path(url: &str) -> Option<PathBuf> {
    let rest = url.strip_prefix("file://")?;
    let path = rest.strip_prefix("localhost").unwrap_or(rest);
    if !path.starts_with('/') {
        return None;
    }
    let bytes = path.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1).copied().and_then(hex), bytes.get(i + 2).copied().and_then(hex)) {
            (b'%', Some(high), Some(low)) => {
                decoded.push((high * 16 + low) as u8);
                i += 3;
            }
            (b, _, _) => {
                decoded.push(b);
                i += 1;
            }
        }
    }
    Some(path_from_bytes(decoded))
}

#[cfg(unix)]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    PathBuf::from(OsString::from_vec(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: Vec<u8>) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(&bytes).into_owned())
}

/// The checkout behind setuptools' `__editable__.hermes_agent-*.pth`: a
/// path line (a folder put on `sys.path`), or an import of the finder
/// module, whose `MAPPING` maps each package to its folder in the checkout.
fn pth_checkout(site: &Path, pth: &Path) -> Option<PathBuf> {
    let head = read_head(pth, HEAD_BYTES)?;
    let text = String::from_utf8_lossy(&head);
    let line = text.lines().map(str::trim).find(|l| !l.is_empty() && !l.starts_with('#'))?;
    let folder = match line.strip_prefix("import ") {
        Some(import) => {
            let module = import.split(|c: char| c == ';' || c.is_whitespace()).next()?;
            let finder = read_head(&site.join(format!("{module}.py")), HEAD_BYTES)?;
            let finder = String::from_utf8_lossy(&finder);
            // `MAPPING: dict[str, str] = {'hermes_cli': '/src/hermes-agent/hermes_cli', ...}`
            let mapping = &finder[finder.find("MAPPING")?..];
            let (_, value) = mapping[mapping.find('{')? + 1..].split_once(':')?;
            let quoted = value.trim_start();
            let quote = quoted.chars().next().filter(|q| *q == '\'' || *q == '"')?;
            let package_dir = quoted[1..].split(quote).next()?;
            PathBuf::from(package_dir).parent()?.to_path_buf()
        }
        None => PathBuf::from(line),
    };
    // A package folder sits in the checkout, or in its `src/`.
    let checkout = [Some(folder.as_path()), folder.parent()]
        .into_iter()
        .flatten()
        .find(|d| d.join("pyproject.toml").is_file())
        .map(Path::to_path_buf);
    checkout
}

#[derive(Deserialize)]
struct PyProject {
    project: Option<Project>,
}

#[derive(Deserialize)]
struct Project {
    name: Option<String>,
    version: Option<String>,
}

/// The version in `dir/pyproject.toml`, when the project there is
/// hermes-agent; and that file.
fn checkout_version(dir: &Path) -> Option<(String, PathBuf)> {
    let file = dir.join("pyproject.toml");
    let bytes = read_head(&file, PYPROJECT_BYTES)?;
    let text = String::from_utf8(bytes).ok()?;
    let project = toml::from_str::<PyProject>(&text).ok()?.project?;
    // PEP 503 names: case and runs of `-_.` do not matter.
    let name = project.name?.to_ascii_lowercase().replace(['_', '.'], "-");
    if name != "hermes-agent" {
        return None;
    }
    let version = project.version?;
    plausible_version(&version).then_some((version, file))
}

/// The first `limit` bytes of a file.
fn read_head(path: &Path, limit: u64) -> Option<Vec<u8>> {
    let mut bytes = Vec::new();
    fs::File::open(path).ok()?.take(limit).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// A version's release numbers (`0.20.1` of `v0.20.1rc2`), epoch dropped.
fn release(version: &str) -> Option<Vec<u64>> {
    let version = version.trim().trim_start_matches(['v', 'V']);
    let version = version.split_once('!').map_or(version, |(_, rest)| rest);
    let mut numbers = Vec::new();
    for piece in version.split('.') {
        let digits = piece.len() - piece.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            break;
        }
        numbers.push(piece[..digits].parse().ok()?);
        if digits < piece.len() {
            break;
        }
    }
    (!numbers.is_empty()).then_some(numbers)
}

/// How `version` stands to the modelled 0.19 series.
fn relation_to_model(version: &str) -> Relation {
    let (Some(found), Some(model)) = (release(version), release(MODELLED_VERSION)) else {
        return Relation::Unknown;
    };
    // Compared on major and minor: any 0.19.x is the modelled series.
    let series = |r: &[u64]| [r.first().copied().unwrap_or(0), r.get(1).copied().unwrap_or(0)];
    match series(&found).cmp(&series(&model)) {
        std::cmp::Ordering::Equal => Relation::Matches,
        std::cmp::Ordering::Greater => Relation::Newer,
        std::cmp::Ordering::Less => Relation::Older,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn releases_and_relations() {
        assert_eq!(release("0.20.1"), Some(vec![0, 20, 1]));
        assert_eq!(release("v1.0rc1"), Some(vec![1, 0]));
        assert_eq!(release("1!2.3.post1"), Some(vec![2, 3]));
        assert_eq!(release("main"), None);
        assert_eq!(relation_to_model("0.19.0"), Relation::Matches);
        assert_eq!(relation_to_model("0.19.7.dev3"), Relation::Matches);
        assert_eq!(relation_to_model("0.19"), Relation::Matches);
        assert_eq!(relation_to_model("0.20.1"), Relation::Newer);
        assert_eq!(relation_to_model("1.0.0"), Relation::Newer);
        assert_eq!(relation_to_model("0.18.9"), Relation::Older);
        assert_eq!(relation_to_model("nightly"), Relation::Unknown);
    }

    #[test]
    fn shebangs() {
        let dir = tempfile::tempdir().expect("tmp");
        let script = |name: &str, text: &[u8]| {
            let path = dir.path().join(name);
            fs::write(&path, text).expect("write");
            script_interpreter(&path)
        };
        assert_eq!(script("a", b"#!/v/bin/python3.11\nimport sys\n"), Some(PathBuf::from("/v/bin/python3.11")));
        assert_eq!(
            script("b", b"#!/bin/sh\n'''exec' \"/my venv/bin/python\" \"$0\" \"$@\"\n' '''\n"),
            Some(PathBuf::from("/my venv/bin/python"))
        );
        assert_eq!(
            script("uv", b"#!/bin/sh\n'''exec' '/my venv/bin/python' \"$0\" \"$@\"\n' '''\n"),
            Some(PathBuf::from("/my venv/bin/python"))
        );
        let long = b"#!/bin/sh\n'''exec' /long/bin/python \"$0\" \"$@\"\n";
        assert_eq!(script("long", long), Some(PathBuf::from("/long/bin/python")));
        let relative = b"#!/bin/sh\n'''exec' \"$(dirname -- \"$(realpath -- \"$0\")\")\"/'python' \"$0\" \"$@\"\n";
        assert_eq!(script("relative", relative), None);
        assert_eq!(script("c", b"#!/usr/bin/env python3\n"), None);
        assert_eq!(script("d", b"\x7fELF\x02\x01\x01\0\0\0"), None);
        assert_eq!(script("e", b""), None);
        assert_eq!(script("f", b"#!/bin/bash\ncd /x && exec python -m hermes_cli.main\n"), None);
        assert_eq!(python_version_of(Path::new("/v/bin/python3.11")).as_deref(), Some("3.11"));
        assert_eq!(python_version_of(Path::new("/v/bin/python3")), None);
    }

    #[test]
    fn metadata_and_urls() {
        let dir = tempfile::tempdir().expect("tmp");
        let meta = dir.path().join("METADATA");
        fs::write(&meta, "Metadata-Version: 2.4\nName: hermes-agent\nVersion: 0.20.1\n\nVersion: 9.9.9\n")
            .expect("write");
        assert_eq!(metadata_version(&meta).as_deref(), Some("0.20.1"));
        fs::write(&meta, b"Version: \xff\xfe\0\x01\n").expect("write");
        assert_eq!(metadata_version(&meta), None, "a garbled version is not shown");
        fs::write(&meta, "Name: hermes-agent\n\nVersion: 1.0\n").expect("write");
        assert_eq!(metadata_version(&meta), None, "only the headers count");
        assert_eq!(file_url_path("file:///src/hermes%20agent"), Some(PathBuf::from("/src/hermes agent")));
        assert_eq!(file_url_path("file://localhost/src/h"), Some(PathBuf::from("/src/h")));
        assert_eq!(file_url_path("file:///bad%zz%"), Some(PathBuf::from("/bad%zz%")));
        assert_eq!(file_url_path("https://github.com/x"), None);
        assert_eq!(file_url_path("file://server/share"), None);
    }

    #[test]
    fn sentences() {
        let found = |version: Option<&str>| HermesInstall {
            entry: PathBuf::from("/u/.local/bin/hermes"),
            version: version.map(str::to_owned),
            version_from: None,
            checkout: None,
        };
        let newer = found(Some("0.20.1"));
        assert_eq!(
            newer.describe(),
            "Hermes Agent 0.20.1 at /u/.local/bin/hermes: newer than the modelled 0.19.0; answers may differ"
        );
        assert_eq!(newer.short_label().as_deref(), Some("Hermes 0.20.1 ≠ 0.19.0"));
        assert!(newer.warning().is_some_and(|w| w.contains("0.20.1") && w.contains("models 0.19.0")));
        let same = found(Some("0.19.0"));
        assert_eq!(same.describe(), "Hermes Agent 0.19.0 at /u/.local/bin/hermes: matches the modelled 0.19.0");
        assert_eq!(same.short_label().as_deref(), Some("Hermes 0.19.0"));
        assert_eq!(same.warning(), None);
        let unknown = found(None);
        assert!(unknown.describe().contains("could not be read"));
        assert_eq!((unknown.short_label(), unknown.warning()), (None, None));
        assert_eq!(version_line(None), "Hermes: not found on PATH");
    }
}
