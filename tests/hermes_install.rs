//! Finding the installed Hermes Agent without running it: synthetic
//! installations (pip venvs, pipx links, editable checkouts, a checkout's
//! own launcher) on a synthetic PATH, bad input of every kind, and the
//! `--version` line. The real pip install in `target/hermes-venv` (made by
//! `tests/golden/regen.py`) is checked too when it is there.

mod common;

use skillscope::engine::hermes_install::{find_on_path, HermesInstall, Relation};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;

fn write(path: &Path, text: impl AsRef<[u8]>) {
    std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

fn make_executable(path: &Path) {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    }
}

#[cfg(unix)]
fn symlink(target: &Path, link: &Path) {
    std::fs::create_dir_all(link.parent().expect("parent")).expect("mkdir");
    std::os::unix::fs::symlink(target, link).expect("symlink");
}

fn path_of(dirs: &[&Path]) -> OsString {
    std::env::join_paths(dirs).expect("PATH")
}

fn site_packages(venv: &Path) -> PathBuf {
    venv.join("lib/python3.11/site-packages")
}

/// A venv as pip leaves it: `bin/hermes` naming the venv's `python`
/// (`python` is the interpreter's file name on the shebang line), and
/// Hermes' dist-info.
fn venv(venv: &Path, python: &str, version: &str) -> PathBuf {
    let entry = venv.join("bin/hermes");
    write(
        &entry,
        format!(
            "#!{}\n# -*- coding: utf-8 -*-\nimport sys\nfrom hermes_cli.main import main\n",
            venv.join("bin").join(python).display()
        ),
    );
    make_executable(&entry);
    let dist_info = site_packages(venv).join(format!("hermes_agent-{version}.dist-info"));
    write(
        &dist_info.join("METADATA"),
        format!("Metadata-Version: 2.4\nName: hermes-agent\nVersion: {version}\nSummary: x\n\n# Hermes\n"),
    );
    write(&site_packages(venv).join("yaml/__init__.py"), "");
    entry
}

fn pyproject(dir: &Path, name: &str, version: &str) {
    write(
        &dir.join("pyproject.toml"),
        format!(
            "[project]\nname = \"{name}\"\nversion = \"{version}\"\n\n[build-system]\nrequires = [\"setuptools\"]\n"
        ),
    );
}

fn found(path: &OsString) -> HermesInstall {
    find_on_path(path).unwrap_or_else(|| panic!("Hermes on {path:?}"))
}

#[test]
fn a_pip_install_in_a_venv() {
    let tmp = tempfile::tempdir().expect("tmp");
    let v = tmp.path().join("venv");
    let entry = venv(&v, "python3.11", "0.20.1");
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).expect("mkdir");
    let h = found(&path_of(&[&empty, &v.join("bin")]));
    assert_eq!(h.entry, entry);
    assert_eq!(h.version.as_deref(), Some("0.20.1"));
    assert_eq!(h.version_from, Some(site_packages(&v).join("hermes_agent-0.20.1.dist-info/METADATA")));
    assert_eq!(h.checkout, None);
    assert_eq!(h.relation(), Relation::Newer);
    assert_eq!(h.short_label().as_deref(), Some("Hermes 0.20.1 ≠ 0.19.0"));
    let matching = tmp.path().join("matching");
    venv(&matching, "python3", "0.19.2");
    let h = found(&path_of(&[&matching.join("bin")]));
    assert_eq!((h.version.as_deref(), h.relation()), (Some("0.19.2"), Relation::Matches));
    assert_eq!(h.warning(), None);
}

#[cfg(unix)]
#[test]
fn pipx_and_uv_tool_links_are_followed_into_their_venv() {
    let tmp = tempfile::tempdir().expect("tmp");
    let v = tmp.path().join("home/.local/share/uv/tools/hermes-agent");
    let real = venv(&v, "python", "0.20.1");
    let link = tmp.path().join("home/.local/bin/hermes");
    symlink(&real, &link);
    let h = found(&path_of(&[&tmp.path().join("home/.local/bin")]));
    assert_eq!(h.entry, link, "named as PATH names it");
    assert_eq!(h.version.as_deref(), Some("0.20.1"));
}

#[test]
fn the_first_runnable_hermes_on_path_is_the_one() {
    let tmp = tempfile::tempdir().expect("tmp");
    let first = tmp.path().join("first");
    let entry = venv(&first, "python3.11", "0.18.0");
    let second = tmp.path().join("second");
    venv(&second, "python3.11", "0.20.1");
    let h = found(&path_of(&[&first.join("bin"), &second.join("bin")]));
    assert_eq!((h.version.as_deref(), h.relation()), (Some("0.18.0"), Relation::Older));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&entry, std::fs::Permissions::from_mode(0o644)).expect("chmod");
        let h = found(&path_of(&[&first.join("bin"), &second.join("bin")]));
        assert_eq!(h.version.as_deref(), Some("0.20.1"), "a shell skips a file it cannot run");
    }
    // A folder named hermes is no command.
    let folder = tmp.path().join("folder");
    std::fs::create_dir_all(folder.join("hermes")).expect("mkdir");
    let h = found(&path_of(&[&folder, &second.join("bin")]));
    assert_eq!(h.version.as_deref(), Some("0.20.1"));
}

#[test]
fn an_editable_install_reads_its_checkouts_pyproject() {
    let tmp = tempfile::tempdir().expect("tmp");
    // Hermes' installer: a checkout with a venv inside, installed editable.
    let checkout = tmp.path().join("my src/hermes-agent");
    let v = checkout.join("venv");
    venv(&v, "python3", "0.20.0");
    pyproject(&checkout, "hermes-agent", "0.21.3");
    let url = format!("file://{}", checkout.display()).replace(' ', "%20");
    write(
        &site_packages(&v).join("hermes_agent-0.20.0.dist-info/direct_url.json"),
        format!("{{\"dir_info\": {{\"editable\": true}}, \"url\": \"{url}\"}}"),
    );
    let h = found(&path_of(&[&v.join("bin")]));
    assert_eq!(h.version.as_deref(), Some("0.21.3"), "the code that runs is the checkout's");
    assert_eq!(h.checkout.as_deref(), Some(checkout.as_path()));
    assert_eq!(h.version_from, Some(checkout.join("pyproject.toml")));
    assert!(h.describe().contains("(source checkout "), "{}", h.describe());

    // A plain (not editable) install from a local folder is what it installed.
    write(
        &site_packages(&v).join("hermes_agent-0.20.0.dist-info/direct_url.json"),
        format!("{{\"dir_info\": {{}}, \"url\": \"{url}\"}}"),
    );
    let h = found(&path_of(&[&v.join("bin")]));
    assert_eq!((h.version.as_deref(), h.checkout), (Some("0.20.0"), None));
}

#[test]
fn setuptools_editable_finder_points_at_the_checkout() {
    let tmp = tempfile::tempdir().expect("tmp");
    let checkout = tmp.path().join("hermes-agent");
    pyproject(&checkout, "Hermes_Agent", "0.22.0");
    let v = tmp.path().join("venv");
    venv(&v, "python3.11", "0.21.3");
    let site = site_packages(&v);
    write(
        &site.join("__editable__.hermes_agent-0.21.3.pth"),
        "import __editable___hermes_agent_0_21_3_finder; __editable___hermes_agent_0_21_3_finder.install()\n",
    );
    write(
        &site.join("__editable___hermes_agent_0_21_3_finder.py"),
        format!(
            "import sys\nMAPPING = {{'hermes_cli': '{0}/hermes_cli', 'run_agent': '{0}/run_agent'}}\nNAMESPACES = {{}}\n",
            checkout.display()
        ),
    );
    let h = found(&path_of(&[&v.join("bin")]));
    assert_eq!(h.version.as_deref(), Some("0.22.0"));
    assert_eq!(h.checkout.as_deref(), Some(checkout.as_path()));

    // The same with a path line (a `src/` layout put on sys.path).
    write(&site.join("__editable__.hermes_agent-0.21.3.pth"), format!("{}\n", checkout.join("src").display()));
    std::fs::create_dir_all(checkout.join("src")).expect("mkdir");
    assert_eq!(found(&path_of(&[&v.join("bin")])).version.as_deref(), Some("0.22.0"));
}

#[test]
fn a_checkouts_own_launcher_or_venv() {
    let tmp = tempfile::tempdir().expect("tmp");
    let checkout = tmp.path().join("hermes-agent");
    pyproject(&checkout, "hermes-agent", "0.23.0");
    let launcher = checkout.join("hermes");
    write(&launcher, "#!/bin/bash\ncd \"$(dirname \"$0\")\"\nexec .venv/bin/python -m hermes_cli.main \"$@\"\n");
    make_executable(&launcher);
    let h = found(&path_of(&[&checkout]));
    assert_eq!((h.version.as_deref(), h.checkout.as_deref()), (Some("0.23.0"), Some(checkout.as_path())));

    // A venv inside the checkout with nothing installed in it.
    let entry = checkout.join(".venv/bin/hermes");
    write(&entry, format!("#!{}/.venv/bin/python\nimport sys\n", checkout.display()));
    make_executable(&entry);
    let h = found(&path_of(&[&checkout.join(".venv/bin")]));
    assert_eq!(h.version.as_deref(), Some("0.23.0"));

    // Another project's pyproject.toml says nothing about Hermes.
    pyproject(&checkout, "not-hermes", "9.0.0");
    let h = found(&path_of(&[&checkout]));
    assert_eq!((h.relation(), h.short_label(), h.version), (Relation::Unknown, None, None));
}

#[test]
fn a_pip_user_install() {
    let tmp = tempfile::tempdir().expect("tmp");
    let local = tmp.path().join(".local");
    let entry = local.join("bin/hermes");
    write(&entry, "#!/nonexistent/usr/bin/python3.11\nimport sys\n");
    make_executable(&entry);
    write(
        &site_packages(&local).join("hermes_agent-0.20.1.dist-info/METADATA"),
        "Name: hermes-agent\nVersion: 0.20.1\n",
    );
    assert_eq!(found(&path_of(&[&local.join("bin")])).version.as_deref(), Some("0.20.1"));
}

#[test]
fn nothing_found_is_no_error() {
    let tmp = tempfile::tempdir().expect("tmp");
    assert_eq!(find_on_path(&OsString::new()), None);
    assert_eq!(find_on_path(&path_of(&[&tmp.path().join("missing")])), None);
    // A relative PATH entry is not searched, even with a hermes in it.
    assert_eq!(find_on_path(&OsString::from("relative/bin")), None);
    #[cfg(unix)]
    {
        let loop_dir = tmp.path().join("loop");
        symlink(&loop_dir.join("hermes"), &loop_dir.join("hermes"));
        assert_eq!(find_on_path(&path_of(&[&loop_dir])), None, "a symlink loop is no command");
        let dangling = tmp.path().join("dangling");
        symlink(&tmp.path().join("gone"), &dangling.join("hermes"));
        assert_eq!(find_on_path(&path_of(&[&dangling])), None);
    }
}

#[test]
fn bad_files_never_panic_and_show_no_garbage() {
    let tmp = tempfile::tempdir().expect("tmp");
    // A binary entry point (no shebang): the folders around it still count.
    let v = tmp.path().join("binary");
    let entry = venv(&v, "python3.11", "0.20.1");
    write(&entry, b"\x7fELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0");
    assert_eq!(found(&path_of(&[&v.join("bin")])).version.as_deref(), Some("0.20.1"));

    // A binary METADATA: the dist-info's name says the version.
    let v = tmp.path().join("binary-metadata");
    venv(&v, "python3.11", "0.20.2");
    let dist_info = site_packages(&v).join("hermes_agent-0.20.2.dist-info");
    write(&dist_info.join("METADATA"), b"\xff\xfeV\0e\0r\0\x1b[31m\0\0\xc3\x28");
    write(&dist_info.join("direct_url.json"), b"\0\0{not json");
    assert_eq!(found(&path_of(&[&v.join("bin")])).version.as_deref(), Some("0.20.2"));

    // An unreadable METADATA (a folder, which even root cannot read as a file).
    std::fs::remove_file(dist_info.join("METADATA")).expect("rm");
    std::fs::create_dir_all(dist_info.join("METADATA")).expect("mkdir");
    assert_eq!(found(&path_of(&[&v.join("bin")])).version.as_deref(), Some("0.20.2"));

    // A dist-info whose name is no version, and a METADATA without one.
    let v = tmp.path().join("odd-name");
    let entry = venv(&v, "python3.11", "0.20.3");
    std::fs::remove_dir_all(site_packages(&v).join("hermes_agent-0.20.3.dist-info")).expect("rm");
    write(&site_packages(&v).join("hermes_agent-\u{1b}[31mred.dist-info/METADATA"), "Name: hermes-agent\n");
    let h = found(&path_of(&[&v.join("bin")]));
    assert_eq!((h.entry, h.version), (entry, None));

    // An editable install whose checkout is gone, or whose pyproject is binary.
    let v = tmp.path().join("gone-checkout");
    venv(&v, "python3.11", "0.20.4");
    let direct_url = site_packages(&v).join("hermes_agent-0.20.4.dist-info/direct_url.json");
    write(&direct_url, "{\"dir_info\": {\"editable\": true}, \"url\": \"file:///nonexistent/checkout\"}");
    assert_eq!(found(&path_of(&[&v.join("bin")])).version.as_deref(), Some("0.20.4"));
    let checkout = tmp.path().join("binary-checkout");
    write(&checkout.join("pyproject.toml"), b"[project]\nname = \"hermes-agent\"\nversion = \"\xff\"\n");
    write(&direct_url, format!("{{\"dir_info\": {{\"editable\": true}}, \"url\": \"file://{}\"}}", checkout.display()));
    assert_eq!(found(&path_of(&[&v.join("bin")])).version.as_deref(), Some("0.20.4"));
    // A finder module that maps nothing.
    let site = site_packages(&v);
    std::fs::remove_file(&direct_url).expect("rm");
    write(
        &site.join("__editable__.hermes_agent-0.20.4.pth"),
        "import __editable___finder; __editable___finder.install()\n",
    );
    write(&site.join("__editable___finder.py"), "MAPPING = {\nNAMESPACES = }");
    assert_eq!(found(&path_of(&[&v.join("bin")])).version.as_deref(), Some("0.20.4"));
}

/// The real `pip install hermes-agent==0.19.0` the golden tests run.
#[test]
fn the_real_hermes_venv_when_present() {
    let venv = common::repo().join("target/hermes-venv");
    if !venv.join("bin/hermes").is_file() {
        eprintln!("no {}; skipped", venv.display());
        return;
    }
    let h = found(&path_of(&[&venv.join("bin")]));
    assert_eq!(h.version.as_deref(), Some("0.19.0"));
    assert_eq!(h.relation(), Relation::Matches);
    assert!(h.version_from.is_some_and(|f| f.ends_with("hermes_agent-0.19.0.dist-info/METADATA")));
}

fn version_output(path: &OsString) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_skillscope")).arg("--version").env("PATH", path).output().expect("runs");
    assert_eq!(out.status.code(), Some(0));
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn version_says_which_hermes_it_models_and_which_is_installed() {
    let tmp = tempfile::tempdir().expect("tmp");
    let none = tmp.path().join("none");
    std::fs::create_dir_all(&none).expect("mkdir");
    assert_eq!(
        version_output(&path_of(&[&none])),
        format!("skillscope {} (models Hermes Agent 0.19.0)\nHermes: not found on PATH\n", env!("CARGO_PKG_VERSION"))
    );
    let v = tmp.path().join("venv");
    let entry = venv(&v, "python3.11", "0.20.1");
    let out = version_output(&path_of(&[&v.join("bin")]));
    let second = out.lines().nth(1).unwrap_or_default().to_owned();
    assert_eq!(
        second,
        format!("Hermes Agent 0.20.1 at {}: newer than the modelled 0.19.0; answers may differ", entry.display())
    );
    let same = tmp.path().join("same");
    venv(&same, "python3.11", "0.19.0");
    let out = version_output(&path_of(&[&same.join("bin")]));
    assert!(out.ends_with(": matches the modelled 0.19.0\n"), "{out}");
}
