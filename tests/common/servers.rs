//! Real database servers for the layer tests: MariaDB and PostgreSQL from
//! the distribution's packages, each started here on 127.0.0.1 and a free
//! port, with a throwaway data folder, and stopped when the tests end (a
//! server gets SIGTERM when the thread that started it ends, so none
//! outlives the test run).
//!
//! Without the server programs the tests that need them say they were
//! skipped; with `SKILLSCOPE_DB_SERVERS=required` (CI) they fail instead.

use std::net::{Ipv4Addr, TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::sync::{mpsc, Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The login the tests' URLs use on every server.
pub const USER: &str = "skillscope";
pub const PASSWORD: &str = "s3cret-pw";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Mariadb,
    Postgres,
}

impl Kind {
    pub fn scheme(self) -> &'static str {
        match self {
            Kind::Mariadb => "mysql",
            Kind::Postgres => "postgres",
        }
    }
}

/// Whether a missing server program fails the test instead of skipping it.
pub fn required() -> bool {
    std::env::var("SKILLSCOPE_DB_SERVERS").is_ok_and(|v| v == "required")
}

/// Says a test was skipped (or fails it, when servers are required).
pub fn skip(why: &str) {
    assert!(!required(), "SKILLSCOPE_DB_SERVERS=required, but {why}");
    eprintln!("skipped: {why}");
}

/// The programs a server kind needs, found on this machine.
struct Programs {
    /// Sets up a data folder.
    init: PathBuf,
    /// The server itself.
    server: PathBuf,
    /// The command-line client, for the tests' own statements.
    client: PathBuf,
}

fn find(kind: Kind) -> Result<Programs, String> {
    let on_path = |name: &str| -> Option<PathBuf> {
        let dirs = std::env::var_os("PATH").unwrap_or_default();
        std::env::split_paths(&dirs)
            .chain(["/usr/sbin".into(), "/usr/bin".into()])
            .map(|d| d.join(name))
            .find(|p| p.is_file())
    };
    match kind {
        Kind::Mariadb => {
            let init = on_path("mariadb-install-db").or_else(|| on_path("mysql_install_db"));
            let server = on_path("mariadbd").or_else(|| on_path("mysqld"));
            let client = on_path("mariadb").or_else(|| on_path("mysql"));
            match (init, server, client) {
                (Some(init), Some(server), Some(client)) => Ok(Programs { init, server, client }),
                _ => {
                    Err("MariaDB is not installed (mariadb-install-db, mariadbd, mariadb: apt install mariadb-server)"
                        .into())
                }
            }
        }
        Kind::Postgres => {
            let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
                .map(|d| d.flatten().map(|e| e.path().join("bin")).collect())
                .unwrap_or_default();
            versions.sort();
            let bin = versions.into_iter().rev().find(|b| b.join("postgres").is_file());
            let in_bin =
                |name: &str| bin.as_ref().map(|b| b.join(name)).filter(|p| p.is_file()).or_else(|| on_path(name));
            match (in_bin("initdb"), in_bin("postgres"), in_bin("psql")) {
                (Some(init), Some(server), Some(client)) => Ok(Programs { init, server, client }),
                _ => Err("PostgreSQL is not installed (initdb, postgres, psql: apt install postgresql)".into()),
            }
        }
    }
}

/// The account a server runs as: PostgreSQL refuses to run as root.
#[derive(Clone, Copy)]
struct Account {
    uid: u32,
    gid: u32,
}

fn account(kind: Kind) -> Result<Option<Account>, String> {
    // SAFETY: geteuid has no preconditions.
    if kind != Kind::Postgres || unsafe { libc::geteuid() } != 0 {
        return Ok(None);
    }
    let name = std::ffi::CString::new("postgres").expect("no NUL");
    // SAFETY: a NUL-terminated name; the entry is read before any other call.
    let entry = unsafe { libc::getpwnam(name.as_ptr()) };
    if entry.is_null() {
        return Err("running as root, and there is no `postgres` account to run PostgreSQL as".into());
    }
    // SAFETY: not null, as checked.
    let (uid, gid) = unsafe { ((*entry).pw_uid, (*entry).pw_gid) };
    Ok(Some(Account { uid, gid }))
}

/// A command run as `account`, ended by SIGTERM when the thread that
/// started it ends.
fn command(program: &Path, account: Option<Account>) -> Command {
    let mut cmd = Command::new(program);
    cmd.env_remove("PGPASSWORD").env_remove("SKILLSCOPE_DB_PASSWORD");
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if let Some(a) = account {
                if libc::setgroups(0, std::ptr::null()) != 0 || libc::setgid(a.gid) != 0 || libc::setuid(a.uid) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
            }
            // Set after setuid, which clears it.
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
            Ok(())
        });
    }
    cmd
}

/// The system account running the tests: MariaDB's administrator login
/// over the socket (mariadb-install-db makes one for it).
fn os_user() -> String {
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        return "root".into();
    }
    std::env::var("USER").unwrap_or_else(|_| "root".into())
}

/// Stops the shared servers and removes their folders when the test
/// process exits (statics are never dropped).
extern "C" fn stop_shared() {
    let Ok(mut started) = SHARED.lock() else { return };
    for (pid, dir) in started.drain(..) {
        // SAFETY: pids of our own children.
        unsafe {
            libc::kill(pid, libc::SIGTERM);
            libc::waitpid(pid, std::ptr::null_mut(), 0);
        }
        let _ = std::fs::remove_dir_all(dir);
    }
}

static SHARED: Mutex<Vec<(i32, PathBuf)>> = Mutex::new(Vec::new());

fn args(list: &[&str]) -> Vec<std::ffi::OsString> {
    list.iter().map(Into::into).collect()
}

fn free_port() -> u16 {
    TcpListener::bind((Ipv4Addr::LOCALHOST, 0)).and_then(|l| l.local_addr()).map(|a| a.port()).expect("a free port")
}

fn checked(what: &str, out: std::io::Result<Output>) -> Result<Output, String> {
    let out = out.map_err(|e| format!("{what}: {e}"))?;
    if out.status.success() {
        Ok(out)
    } else {
        Err(format!(
            "{what}: {}\n{}{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// One running server with its own data folder.
pub struct Server {
    pub kind: Kind,
    pub port: u16,
    /// With TLS required over TCP: the authority (PEM) clients may trust.
    pub certificate: Option<PathBuf>,
    dir: tempfile::TempDir,
    programs: Programs,
    account: Option<Account>,
    child: Option<Child>,
}

impl Server {
    /// Sets up a data folder and starts a server on it, with the tests'
    /// login and a database `skills`.
    pub fn start(kind: Kind) -> Result<Server, String> {
        Server::start_with(kind, false)
    }

    /// [`Server::start`], with `tls`: TCP clients must use TLS, with a
    /// certificate for 127.0.0.1 made here.
    pub fn start_with(kind: Kind, tls: bool) -> Result<Server, String> {
        let programs = find(kind)?;
        let account = account(kind)?;
        let dir = tempfile::Builder::new().prefix("skillscope-db-").tempdir().map_err(|e| e.to_string())?;
        if let Some(a) = account {
            std::os::unix::fs::chown(dir.path(), Some(a.uid), Some(a.gid)).map_err(|e| e.to_string())?;
        }
        let mut server = Server { kind, port: free_port(), certificate: None, dir, programs, account, child: None };
        server.init()?;
        if tls {
            server.require_tls()?;
        }
        server.run()?;
        server.admin(&match kind {
            Kind::Mariadb => format!(
                "CREATE USER '{USER}'@'%' IDENTIFIED BY '{PASSWORD}'; GRANT ALL ON *.* TO '{USER}'@'%'; CREATE DATABASE skills;"
            ),
            Kind::Postgres => format!("CREATE ROLE {USER} LOGIN SUPERUSER PASSWORD '{PASSWORD}'; CREATE DATABASE skills OWNER {USER};"),
        }, None)?;
        Ok(server)
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn socket(&self) -> PathBuf {
        match self.kind {
            Kind::Mariadb => self.dir.path().join("mysqld.sock"),
            Kind::Postgres => self.dir.path().to_path_buf(),
        }
    }

    fn init(&self) -> Result<(), String> {
        let mut cmd = command(&self.programs.init, self.account);
        match self.kind {
            Kind::Mariadb => {
                cmd.arg("--no-defaults").arg(format!("--datadir={}", self.data().display()));
                cmd.arg(format!("--user={}", os_user()));
                cmd.args(["--skip-test-db", "--auth-root-authentication-method=socket"]);
            }
            Kind::Postgres => {
                cmd.arg("-D").arg(self.data());
                cmd.args([
                    "-U",
                    "postgres",
                    "--auth-local=trust",
                    "--auth-host=scram-sha-256",
                    "-E",
                    "UTF8",
                    "--locale=C",
                ]);
            }
        }
        checked("setting up the data folder", cmd.output()).map(drop)
    }

    /// Makes a certificate authority and, signed by it, a certificate for
    /// 127.0.0.1, and has TCP clients use TLS.
    fn require_tls(&mut self) -> Result<(), String> {
        let at = |name: &str| self.dir.path().join(name);
        let (cert, key) = (at("server.crt"), at("server.key"));
        std::fs::write(at("leaf.ext"), "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n")
            .map_err(|e| e.to_string())?;
        let steps: [Vec<std::ffi::OsString>; 3] = [
            args(&["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2", "-subj", "/CN=skillscope test CA"])
                .into_iter()
                .chain(["-keyout".into(), at("ca.key").into(), "-out".into(), at("ca.crt").into()])
                .collect(),
            args(&["req", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=localhost", "-keyout"])
                .into_iter()
                .chain([key.clone().into(), "-out".into(), at("server.csr").into()])
                .collect(),
            args(&["x509", "-req", "-days", "2", "-CAcreateserial", "-in"])
                .into_iter()
                .chain([at("server.csr").into(), "-CA".into(), at("ca.crt").into(), "-CAkey".into()])
                .chain([
                    at("ca.key").into(),
                    "-extfile".into(),
                    at("leaf.ext").into(),
                    "-out".into(),
                    cert.clone().into(),
                ])
                .collect(),
        ];
        for step in steps {
            checked("making certificates (openssl)", Command::new("openssl").args(step).output())?;
        }
        if let Some(a) = self.account {
            for file in [&cert, &key] {
                std::os::unix::fs::chown(file, Some(a.uid), Some(a.gid)).map_err(|e| e.to_string())?;
            }
        }
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).map_err(|e| e.to_string())?;
        if self.kind == Kind::Postgres {
            // Local administration stays open; TCP logins only over TLS.
            let hba = "local all all trust\nhostssl all all 127.0.0.1/32 scram-sha-256\n";
            let file = self.data().join("pg_hba.conf");
            std::fs::write(&file, hba).map_err(|e| e.to_string())?;
        }
        self.certificate = Some(at("ca.crt"));
        Ok(())
    }

    /// Starts the server on its data folder and waits until it answers.
    pub fn run(&mut self) -> Result<(), String> {
        assert!(self.child.is_none(), "already running");
        let mut cmd = command(&self.programs.server, self.account);
        match self.kind {
            Kind::Mariadb => {
                cmd.arg("--no-defaults")
                    .arg(format!("--datadir={}", self.data().display()))
                    .arg(format!("--socket={}", self.socket().display()))
                    .arg(format!("--port={}", self.port))
                    .arg(format!("--pid-file={}", self.dir.path().join("mysqld.pid").display()))
                    .arg(format!("--log-error={}", self.dir.path().join("error.log").display()))
                    .arg(format!("--user={}", os_user()))
                    .args(["--bind-address=127.0.0.1", "--skip-log-bin", "--innodb-buffer-pool-size=16M"])
                    .args(["--skip-name-resolve", "--innodb-log-file-size=8M"]);
                if self.certificate.is_some() {
                    cmd.arg(format!("--ssl-cert={}", self.dir.path().join("server.crt").display()))
                        .arg(format!("--ssl-key={}", self.dir.path().join("server.key").display()))
                        .arg("--require-secure-transport=ON");
                }
            }
            Kind::Postgres => {
                cmd.arg("-D")
                    .arg(self.data())
                    .arg("-p")
                    .arg(self.port.to_string())
                    .arg("-k")
                    .arg(self.socket())
                    .args(["-c", "listen_addresses=127.0.0.1", "-c", "fsync=off", "-c", "shared_buffers=16MB"]);
                if self.certificate.is_some() {
                    cmd.args(["-c", "ssl=on", "-c"])
                        .arg(format!("ssl_cert_file={}", self.dir.path().join("server.crt").display()))
                        .arg("-c")
                        .arg(format!("ssl_key_file={}", self.dir.path().join("server.key").display()));
                }
            }
        }
        cmd.stdin(Stdio::null()).stdout(Stdio::null()).stderr(Stdio::null());
        // Started from a thread that lives as long as the test process.
        let child = keeper().spawn(cmd)?;
        self.child = Some(child);
        let started = Instant::now();
        loop {
            if TcpStream::connect((Ipv4Addr::LOCALHOST, self.port)).is_ok() && self.admin("SELECT 1;", None).is_ok() {
                return Ok(());
            }
            if let Some(Ok(Some(status))) = self.child.as_mut().map(Child::try_wait) {
                self.child = None;
                return Err(format!("{:?} exited at start: {status}{}", self.kind, self.log()));
            }
            if started.elapsed() > Duration::from_secs(60) {
                let answer = self.admin("SELECT 1;", None).err().unwrap_or_default();
                return Err(format!("{:?} did not answer within 60 s: {answer}{}", self.kind, self.log()));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn log(&self) -> String {
        let log = std::fs::read_to_string(self.dir.path().join("error.log")).unwrap_or_default();
        let tail: Vec<&str> = log.lines().rev().take(15).collect();
        format!("\n{}", tail.into_iter().rev().collect::<Vec<_>>().join("\n"))
    }

    /// Stops the server (SIGTERM), keeping its data folder.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            // SAFETY: a pid of our own child, not yet waited for.
            unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
            let _ = child.wait();
        }
    }

    /// Runs SQL statements as the administrator, over the socket, in
    /// `database` (the server's own when `None`); the rows printed
    /// tab-separated, one line each.
    pub fn admin(&self, sql: &str, database: Option<&str>) -> Result<String, String> {
        let mut cmd = command(&self.programs.client, self.account);
        match self.kind {
            Kind::Mariadb => {
                // --no-defaults is taken only as the first argument.
                cmd.arg("--no-defaults")
                    .arg(format!("--socket={}", self.socket().display()))
                    .args(["--batch", "--skip-column-names", "--raw"])
                    .arg(format!("--user={}", os_user()))
                    .arg("-e")
                    .arg(format!("SET SESSION sql_mode = CONCAT(@@sql_mode, ',NO_BACKSLASH_ESCAPES'); {sql}"));
                if let Some(db) = database {
                    cmd.arg(db);
                }
            }
            Kind::Postgres => {
                cmd.arg("-h")
                    .arg(self.socket())
                    .arg("-p")
                    .arg(self.port.to_string())
                    .args(["-U", "postgres", "-X", "-q", "-A", "-t", "-F", "\t", "-v", "ON_ERROR_STOP=1"])
                    .arg("-d")
                    .arg(database.unwrap_or("postgres"));
            }
        }
        // The client's own settings stay out of it.
        cmd.env("HOME", self.dir.path()).env_remove("PGHOST").env_remove("PGPORT").env_remove("PGUSER");
        // psql runs statements from its input one by one (`-c` would make
        // them one transaction, where CREATE DATABASE may not run).
        cmd.stdin(Stdio::piped()).stdout(Stdio::piped()).stderr(Stdio::piped());
        let run = cmd.spawn().and_then(|mut child| {
            if self.kind == Kind::Postgres {
                use std::io::Write;
                child.stdin.take().expect("piped").write_all(sql.as_bytes())?;
            }
            drop(child.stdin.take());
            child.wait_with_output()
        });
        let out = checked(&format!("{:?}: {sql}", self.kind), run)?;
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    }

    /// A URL of the tests' login to `database`, password in it, with
    /// `options` (`key=value&...`).
    pub fn url(&self, database: &str, options: &str) -> String {
        let query = if options.is_empty() { String::new() } else { format!("?{options}") };
        format!("{}://{USER}:{PASSWORD}@127.0.0.1:{}/{database}{query}", self.kind.scheme(), self.port)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A thread that lives as long as the test process and starts the servers,
/// so that their parent-death signal comes only when the process ends.
struct Keeper {
    requests: Mutex<mpsc::Sender<(Command, mpsc::Sender<std::io::Result<Child>>)>>,
}

impl Keeper {
    fn spawn(&self, cmd: Command) -> Result<Child, String> {
        let (tx, rx) = mpsc::channel();
        self.requests.lock().expect("keeper").send((cmd, tx)).map_err(|e| e.to_string())?;
        rx.recv().map_err(|e| e.to_string())?.map_err(|e| format!("cannot start the server: {e}"))
    }
}

fn keeper() -> &'static Keeper {
    static KEEPER: OnceLock<Keeper> = OnceLock::new();
    KEEPER.get_or_init(|| {
        let (tx, rx) = mpsc::channel::<(Command, mpsc::Sender<std::io::Result<Child>>)>();
        std::thread::spawn(move || {
            for (mut cmd, answer) in rx {
                let _ = answer.send(cmd.spawn());
            }
            // The senders live in a static: this thread never ends.
        });
        Keeper { requests: Mutex::new(tx) }
    })
}

/// One server of each kind shared by the tests of a process; each test
/// takes a database of its own ([`shared_database`]).
pub fn shared(kind: Kind) -> Result<&'static Server, String> {
    static MARIADB: OnceLock<Result<Server, String>> = OnceLock::new();
    static POSTGRES: OnceLock<Result<Server, String>> = OnceLock::new();
    let cell = match kind {
        Kind::Mariadb => &MARIADB,
        Kind::Postgres => &POSTGRES,
    };
    cell.get_or_init(|| {
        let server = Server::start(kind)?;
        let mut started = SHARED.lock().expect("shared servers");
        if started.is_empty() {
            // SAFETY: registers a plain function.
            unsafe { libc::atexit(stop_shared) };
        }
        let pid = server.child.as_ref().map_or(0, |c| c.id() as i32);
        started.push((pid, server.dir.path().to_path_buf()));
        Ok(server)
    })
    .as_ref()
    .map_err(Clone::clone)
}

/// A fresh, empty database on the shared server of `kind`.
pub fn shared_database(kind: Kind) -> Result<(&'static Server, String), String> {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let server = shared(kind)?;
    let name = format!("t{}", NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    let grant = match kind {
        Kind::Mariadb => format!("CREATE DATABASE {name};"),
        Kind::Postgres => format!("CREATE DATABASE {name} OWNER {USER};"),
    };
    server.admin(&grant, None)?;
    Ok((server, name))
}
