//! The process facts Hermes consults: environment variables, the OS
//! (`sys.platform`), and the user's home directory for `~`.
//!
//! Captured once into [`Env`] so the engine is deterministic and testable: a
//! test builds an `Env` by hand instead of mutating the real process.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The operating system as Python's `sys.platform` names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Os {
    Linux,
    Macos,
    Windows,
}

impl Os {
    pub fn host() -> Os {
        if cfg!(target_os = "macos") {
            Os::Macos
        } else if cfg!(target_os = "windows") {
            Os::Windows
        } else {
            Os::Linux
        }
    }

    /// `linux`, `macos`/`darwin`, `windows`/`win32` (case-insensitive).
    pub fn parse(name: &str) -> Option<Os> {
        match name.trim().to_ascii_lowercase().as_str() {
            "linux" => Some(Os::Linux),
            "macos" | "darwin" | "mac" => Some(Os::Macos),
            "windows" | "win32" => Some(Os::Windows),
            _ => None,
        }
    }

    pub fn sys_platform(self) -> &'static str {
        match self {
            Os::Linux => "linux",
            Os::Macos => "darwin",
            Os::Windows => "win32",
        }
    }

    /// The name a user types (`--platform`).
    pub fn name(self) -> &'static str {
        match self {
            Os::Linux => "linux",
            Os::Macos => "macos",
            Os::Windows => "windows",
        }
    }
}

/// A snapshot of the environment the engine evaluates skills against.
#[derive(Debug, Clone)]
pub struct Env {
    vars: HashMap<String, String>,
    pub os: Os,
    /// Running inside a container (`is_container()`), for `environments: [docker]`.
    pub container: bool,
    /// Inside an s6-overlay image, for `environments: [s6]`.
    pub s6: bool,
}

impl Env {
    /// The real process environment on this host.
    pub fn from_process() -> Env {
        let vars: HashMap<String, String> = std::env::vars().collect();
        let container = detect_container(&vars);
        let s6 = Path::new("/run/s6").is_dir() || Path::new("/package/admin/s6-overlay").is_dir();
        Env { vars, os: Os::host(), container, s6 }
    }

    /// An environment with exactly these variables (tests, previews).
    pub fn with_vars<I, K, V>(vars: I, os: Os) -> Env
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        Env { vars: vars.into_iter().map(|(k, v)| (k.into(), v.into())).collect(), os, container: false, s6: false }
    }

    pub fn var(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str)
    }

    /// `os.getenv(name)` that is set and non-empty (Python's `or` idiom).
    pub fn non_empty(&self, name: &str) -> Option<&str> {
        self.var(name).filter(|v| !v.is_empty())
    }

    /// `env_var_enabled(name)`: `1`, `true`, `yes`, `on` (any case, stripped
    /// as Python strips: `\x1c`–`\x1f` too).
    pub fn enabled(&self, name: &str) -> bool {
        let on = |v: &str| matches!(crate::py::py_strip(v).to_ascii_lowercase().as_str(), "1" | "true" | "yes" | "on");
        self.var(name).is_some_and(on)
    }

    pub fn set(&mut self, name: &str, value: &str) {
        self.vars.insert(name.into(), value.into());
    }

    pub fn home_dir(&self) -> Option<PathBuf> {
        self.non_empty("HOME").map(PathBuf::from)
    }

    /// Termux detection used by the platform gate.
    pub fn is_termux(&self) -> bool {
        self.non_empty("TERMUX_VERSION").is_some()
            || self.var("PREFIX").is_some_and(|p| p.contains("com.termux/files/usr"))
    }

    /// The messaging platform scope (`HERMES_PLATFORM`, else the session's).
    pub fn platform_scope(&self) -> Option<&str> {
        self.non_empty("HERMES_PLATFORM").or_else(|| self.non_empty("HERMES_SESSION_PLATFORM"))
    }

    /// `os.path.expandvars`: `$NAME` and `${NAME}`, unknown names kept.
    pub fn expand_vars(&self, text: &str) -> String {
        if !text.contains('$') {
            return text.to_owned();
        }
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        while let Some(pos) = rest.find('$') {
            out.push_str(&rest[..pos]);
            let after = &rest[pos + 1..];
            let (name, consumed) = if let Some(braced) = after.strip_prefix('{') {
                match braced.find('}') {
                    Some(end) => (&braced[..end], end + 2),
                    None => ("", 0),
                }
            } else {
                let len = after
                    .char_indices()
                    .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_'))
                    .map_or(after.len(), |(i, _)| i);
                (&after[..len], len)
            };
            match self.var(name) {
                Some(value) if consumed > 0 && !name.is_empty() => {
                    out.push_str(value);
                    rest = &after[consumed..];
                }
                _ => {
                    out.push('$');
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        out
    }

    /// `os.path.expanduser`: `~` and `~/...` from `HOME`, `~name/...` from
    /// the user database (kept as written when there is no such user).
    pub fn expand_user(&self, text: &str) -> String {
        let Some(after) = text.strip_prefix('~') else { return text.to_owned() };
        let (user, rest) = after.split_at(after.find('/').unwrap_or(after.len()));
        let home = match user {
            "" => self.home_dir().map(|h| h.to_string_lossy().into_owned()),
            name => user_home(name),
        };
        match home {
            Some(home) => {
                let joined = format!("{}{rest}", home.trim_end_matches('/'));
                if joined.is_empty() {
                    "/".to_owned()
                } else {
                    joined
                }
            }
            None => text.to_owned(),
        }
    }
}

/// `pwd.getpwnam(name).pw_dir`, none when there is no such user.
#[cfg(unix)]
fn user_home(name: &str) -> Option<String> {
    let name = std::ffi::CString::new(name).ok()?;
    // SAFETY: a zeroed `passwd` is a valid out-parameter; `getpwnam_r` writes
    // strings only into `buf`, whose size it is told, and sets `found` to
    // the record or null.
    unsafe {
        let mut record: libc::passwd = std::mem::zeroed();
        let mut found: *mut libc::passwd = std::ptr::null_mut();
        let mut buf = vec![0 as libc::c_char; 16 * 1024];
        let code = libc::getpwnam_r(name.as_ptr(), &mut record, buf.as_mut_ptr(), buf.len(), &mut found);
        if code != 0 || found.is_null() || record.pw_dir.is_null() {
            return None;
        }
        Some(std::ffi::CStr::from_ptr(record.pw_dir).to_string_lossy().into_owned())
    }
}

#[cfg(not(unix))]
fn user_home(_name: &str) -> Option<String> {
    None
}

/// `hermes_constants.is_container()`.
fn detect_container(vars: &HashMap<String, String>) -> bool {
    if Path::new("/.dockerenv").exists() || Path::new("/run/.containerenv").exists() {
        return true;
    }
    if vars.get("KUBERNETES_SERVICE_HOST").is_some_and(|v| !v.is_empty()) {
        return true;
    }
    let cgroup = std::fs::read_to_string("/proc/1/cgroup").unwrap_or_default();
    if ["docker", "podman", "/lxc/", "kubepods", "containerd", "crio"].iter().any(|m| cgroup.contains(m)) {
        return true;
    }
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").unwrap_or_default();
    ["kubepods", "containerd", "crio"].iter().any(|m| mountinfo.contains(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env() -> Env {
        Env::with_vars([("HOME", "/home/u"), ("A", "1"), ("B_C", "two")], Os::Linux)
    }

    #[test]
    fn expandvars_like_python() {
        let e = env();
        assert_eq!(e.expand_vars("$A/${B_C}/$NOPE/${X"), "1/two/$NOPE/${X");
        assert_eq!(e.expand_vars("x$"), "x$");
        assert_eq!(e.expand_vars("$A-b"), "1-b");
    }

    #[test]
    fn expanduser_only_at_start() {
        let e = env();
        assert_eq!(e.expand_user("~/x"), "/home/u/x");
        assert_eq!(e.expand_user("~"), "/home/u");
        assert_eq!(e.expand_user("a/~/x"), "a/~/x");
        assert_eq!(e.expand_user("~no-such-user-here/x"), "~no-such-user-here/x");
        // Another user's home, from the user database (root's is `/root`
        // on most systems; whatever it is, `~root` is not kept as written).
        let root = user_home("root").expect("a root user");
        assert_eq!(e.expand_user("~root/x"), format!("{}/x", root.trim_end_matches('/')));
    }

    #[test]
    fn enabled_values() {
        let e = Env::with_vars([("G", " Yes "), ("H", "0")], Os::Linux);
        assert!(e.enabled("G"));
        assert!(!e.enabled("H"));
        assert!(!e.enabled("MISSING"));
        let python_blanks = Env::with_vars([("G", "\x1f1\x1c")], Os::Linux);
        assert!(python_blanks.enabled("G"), "str.strip() takes \\x1c-\\x1f too");
    }
}
