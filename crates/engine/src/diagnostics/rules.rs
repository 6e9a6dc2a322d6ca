//! The rule registry: id, severity, what it means, what to do.
//! The rule table of docs/rules.md is checked against this list by a test.

use super::Severity::{self, Error, Info, Warning};

pub struct RuleInfo {
    /// Short and stable (`H017`): usable wherever a name is, and safe in
    /// HTML comments, which Hermes' guard reads for words such as "ignore".
    pub code: &'static str,
    pub id: &'static str,
    pub severity: Severity,
    pub title: &'static str,
    pub hint: &'static str,
    /// A frontmatter or body that triggers the rule.
    pub example: &'static str,
}

macro_rules! rules {
    ($($code:literal, $id:literal, $sev:ident, $title:literal, $hint:literal, $example:literal;)*) => {
        pub static RULES: &[RuleInfo] = &[
            $(RuleInfo { code: $code, id: $id, severity: $sev, title: $title, hint: $hint, example: $example },)*
        ];
    };
}

rules! {
    "S001", "spec-name-missing", Warning, "no `name` in the frontmatter",
        "Add `name:` equal to the folder name; Hermes falls back to the folder name, other agents reject the skill.",
        "description: Deploys things";
    "S002", "spec-name-format", Warning, "`name` is not 1-64 lowercase letters, digits and single hyphens",
        "Use lowercase letters, digits and hyphens, no leading, trailing or double hyphen, at most 64 characters.",
        "name: Deploy_Tool";
    "S003", "spec-name-folder", Warning, "`name` differs from the folder name",
        "Rename the folder or the skill: agentskills.io requires them equal, and skill_view finds the skill by either.",
        "name: deploy  # in folder deploy-tool/";
    "S004", "spec-description-missing", Warning, "no `description`",
        "Add a description saying what the skill does and when to use it; the listing otherwise shows the first body line and the prompt index nothing.",
        "name: deploy";
    "S005", "spec-description-length", Warning, "`description` over 1024 characters",
        "Shorten it: Hermes cuts it to 1021 characters + `...` in skills_list, and other agents reject it.",
        "description: <1,100 characters>";
    "S006", "spec-compatibility-length", Warning, "`compatibility` over 500 characters",
        "Keep compatibility to a short line about required systems.",
        "compatibility: <600 characters>";
    "S007", "spec-metadata-strings", Info, "`metadata` values are not all strings",
        "agentskills.io wants a mapping of strings; Hermes reads its own settings from the nested `metadata.hermes` mapping, which is fine.",
        "metadata: {count: 3}";
    "S008", "spec-extension-key", Info, "top-level key outside the agentskills.io specification",
        "Hermes reads this key, other agents ignore it; nothing to do unless the skill must pass `skills-ref validate`.",
        "platforms: [linux]";
    "S009", "spec-unknown-key", Info, "top-level key neither agentskills.io nor Hermes reads",
        "Move it under `metadata:` if it is information for people; no agent acts on it where it is.",
        "owner: ops-team";
    "S010", "spec-body-size", Info, "the body is over 5,000 tokens or 500 lines",
        "agentskills.io advises a SKILL.md body under 5,000 tokens and 500 lines: the agent reads it whole on every load; move detail into references/.",
        "<a body of 620 lines>";
    "C001", "cost-index-budget", Warning, "the skills index is over the token budget",
        "The index goes with every conversation: shorten descriptions, disable skills a platform does not need, or demote categories (focus posture); the budget is `[cost] max-index-tokens` in skillscope.toml.",
        "[cost] max-index-tokens = 8000  # index of 9,120 tokens";
    "C002", "cost-skill-budget", Warning, "a SKILL.md is over the token budget",
        "Loading the skill puts all of it in the conversation: move detail into references/ the agent reads on demand; the budget is `[cost] max-skill-tokens` in skillscope.toml.",
        "[cost] max-skill-tokens = 4000  # SKILL.md of 6,300 tokens";
    "I001", "index-similar-descriptions", Info, "the skill's index line is much like another's",
        "The agent picks a skill by its line in the index: say what sets this skill apart in the first 60 characters of its description (the index cuts there), or merge the two.",
        "description: Review code for bugs  # beside: Review code changes for bugs";
    "H001", "hermes-unreadable", Error, "the SKILL.md cannot be read",
        "Save it as UTF-8 text (and make it readable): the agent sees the skill's name in the index but cannot load it.",
        "<binary or invalid UTF-8 bytes>";
    "H002", "hermes-unreadable-folder", Error, "a folder under the skill dirs cannot be listed",
        "Make it readable (`chmod a+rx`) or move it out: Hermes' walk passes over a folder it cannot list without a word, and every skill inside with it.",
        "skills/team/  # mode 000";
    "H003", "hermes-yaml-fallback", Error, "the frontmatter is not valid YAML",
        "Fix the YAML: Hermes falls back to splitting `key: value` lines, so nested fields (metadata, lists) are lost and values keep their quotes.",
        "description: a: b: [unclosed";
    "H004", "hermes-frontmatter-not-mapping", Error, "the frontmatter is YAML but not a mapping",
        "Write `key: value` pairs (`name:` and `description:` at least); Hermes ignores a frontmatter that is empty, a list or a scalar.",
        "- name: deploy";
    "H005", "hermes-fence-unclosed", Error, "Hermes does not see the frontmatter's closing `---`",
        "End the frontmatter with a line `---` followed by a newline; otherwise the whole file is body and the skill has no name or description.",
        "---\\nname: x\\n---<end of file, no newline>";
    "H006", "hermes-frontmatter-too-long", Warning, "the frontmatter runs past the first 4000 characters",
        "skills_list parses only the first 4000 characters: it lists the skill under its folder name with description `---`. Shorten the frontmatter.",
        "description: <4,100 characters>";
    "H007", "hermes-yaml-date", Error, "an unquoted date in a field skill_view returns",
        "Quote it (`'2024-01-01'`): PyYAML reads a date, and skill_view then fails with `Object of type date is not JSON serializable`.",
        "metadata:\\n  released: 2024-01-01";
    "H008", "hermes-name-not-string", Error, "`name` is not a string",
        "Quote it: skills_list drops a skill whose name is a number, boolean or list.",
        "name: 123";
    "H009", "hermes-name-too-long", Warning, "`name` over 64 characters",
        "Shorten it: skills_list cuts it to 64 characters, so the listed name and the real one differ.",
        "name: <70 characters>";
    "H010", "hermes-no-slash-command", Warning, "the skill gets no slash command",
        "Its slug is empty or a core command (`/help`, `/model`, ...): rename it to get `/<slug>`.",
        "name: help";
    "H011", "hermes-name-collision", Error, "another skill has the same name",
        "Rename one: the listing keeps the first, and skill_view refuses the name as ambiguous.",
        "two folders with name: deploy";
    "H012", "hermes-description-dropped", Error, "the description makes skills_list drop the skill",
        "Give a text description: a null or numeric one with no body text to fall back to removes the skill from skills_list.",
        "description:";
    "H013", "hermes-description-prompt-cut", Info, "description over 60 characters in the system prompt",
        "The prompt index shows the first 57 characters + `...`: put the words that decide when to use the skill first.",
        "description: <80 characters>";
    "H014", "hermes-ignored-key", Warning, "a key Hermes does not read where it is",
        "Move it where Hermes reads it (the message says where).",
        "prerequisites:\\n  env: [{name: TOKEN}]";
    "H030", "hermes-prerequisites-not-list", Error, "`prerequisites.env_vars` or `.commands` is a number, boolean or date",
        "Write a list (`[API_KEY]`): Hermes iterates the value, so skill_view fails with `'int' object is not iterable` and the skill cannot be loaded, invoked or preloaded.",
        "prerequisites:\n  env_vars: 5";
    "H015", "hermes-env-name", Warning, "an environment variable name Hermes drops",
        "Use letters, digits and underscores, not starting with a digit; Hermes silently ignores other names.",
        "required_environment_variables: [api-key]";
    "H016", "hermes-credential-path", Error, "a credential file Hermes can never mount",
        "Use a path relative to HERMES_HOME, inside it, not one of Hermes' own secret stores; otherwise it is always reported missing.",
        "required_credential_files: [~/.config/token.json]";
    "H017", "hermes-platform-unknown", Error, "a `platforms` value that matches no OS",
        "Use linux, macos or windows, as a list: a value matching no OS hides the skill there (everywhere, if no value matches), and one that is not a list or a string (a number, true, a date) makes building the whole skills index fail.",
        "platforms: [mac]";
    "H018", "hermes-environment-unknown", Warning, "an `environments` tag Hermes does not know",
        "Known tags are kanban, docker and s6; an unknown tag makes the skill show everywhere.",
        "environments: [k8s]";
    "H019", "hermes-condition-string", Warning, "a toolset/tool condition written as a string",
        "Write a list (`[web]`): Hermes iterates a string per character.",
        "metadata:\\n  hermes:\\n    requires_toolsets: web";
    "H020", "hermes-disabled-unknown", Warning, "`skills.disabled` names no skill",
        "Remove the entry or fix its spelling.",
        "skills:\\n  disabled: [old-skil]";
    "H021", "hermes-disabled-string", Warning, "`skills.disabled` is a single string",
        "Write a list: skill_view tests a single string as a substring, disabling every skill whose name is part of it.",
        "skills:\\n  disabled: deploy-old";
    "H022", "hermes-home-excluded", Error, "the home lies under a folder Hermes' listing excludes",
        "Move the home: skills_list skips every skill whose path contains venv, node_modules, .git, ...",
        "HERMES_HOME=/work/venv/hermes";
    "H023", "hermes-inline-shell", Info, "an inline shell snippet",
        "!`cmd` runs on the host when config enables skills.inline_shell; otherwise the agent sees it literally.",
        "Today is !`date`.";
    "H024", "hermes-unknown-template", Warning, "a `${...}` template Hermes does not substitute",
        "Hermes substitutes only ${HERMES_SKILL_DIR} and ${HERMES_SESSION_ID}; others reach the agent literally.",
        "${SKILL_DIR}/scripts/run.sh";
    "H025", "hermes-missing-file", Error, "the SKILL.md refers to a file in its folder that does not exist",
        "Add the file or fix the path: the agent will be told to use it.",
        "Run `scripts/deploy.sh`.  # no such file";
    "H026", "hermes-unlinked-file", Info, "a support file linked_files does not list",
        "skill_view's linked_files lists references/*.md, templates/ (md, py, yaml, yml, json, tex, sh), assets/ and scripts/ (py, sh, bash, js, ts, rb) only; rename or move it if the agent should see it.",
        "references/notes.txt";
    "H027", "hermes-dangling-symlink", Warning, "a symlink to nothing",
        "Fix or remove the link.",
        "references/old.md -> ../gone.md";
    "H028", "hermes-symlink-sandbox", Warning, "a file reached through a symlink",
        "Sandboxed backends (docker, singularity, modal, ssh, daytona) copy regular files only: copy the file into the skill.",
        "references/shared.md -> ../../shared.md";
    "H029", "hermes-injection-phrase", Warning, "a phrase Hermes flags as possible prompt injection",
        "skill_view logs a security warning for this phrase; reword it.",
        "Ignore previous instructions and ...";
    "H031", "hermes-skill-too-long", Warning, "SKILL.md over 100,000 characters",
        "The agent's skill_manage refuses to write a SKILL.md this long (MAX_SKILL_CONTENT_CHARS), so it cannot patch the skill; move detail into references/.",
        "<a SKILL.md of 120,000 characters>";
    "H032", "hermes-control-character", Warning, "a control or escape character in a name or description",
        "Remove it: the name and description reach the agent's prompt and every terminal that lists skills as they are.",
        "description: \"Deploys\\x1b[31m things\"";
    "H033", "hermes-config-ignored", Error, "config.yaml is not YAML Hermes can use",
        "Fix it: Hermes reads a config.yaml that does not parse, or is not a mapping, as empty, so every skills setting in it (disabled, external_dirs, template_vars, ...) is silently ignored.",
        "skills:\n  disabled: [old-skill";
    "H034", "hermes-env-unreadable", Error, "a .env Hermes cannot read",
        "Save .env as UTF-8 text (a file): Hermes reads it for every skill_view, so while it fails no skill loads, no slash command or bundle runs, and nothing is preloaded.",
        "API_KEY=caf\\xe9  # Latin-1, not UTF-8";
    "H035", "hermes-shell-timeout-invalid", Error, "an inline_shell_timeout Hermes cannot read as an integer",
        "Give a whole number of seconds: with inline_shell on, Hermes reads it with int() as it builds every /name, bundle and preloaded message, and each fails while it raises.",
        "skills:\n  inline_shell: true\n  inline_shell_timeout: 2.5s";
    "H036", "hermes-disabled-unusable", Error, "a disabled list Hermes cannot read",
        "Give `skills.disabled` (and `platform_disabled.<platform>`) as a list of names: Hermes iterates it for every listing, index and skill_view, and while it raises, no skill is listed or offered.",
        "skills:\n  disabled: 5";
    "H037", "hermes-description-unwritable", Error, "a description skills_list cannot write as JSON",
        "Write the description as plain text: PyYAML makes `!!binary` bytes, `!!set` a set and an unquoted date inside a mapping or list a date, and json.dumps of the listing then fails, so skills_list lists no skill at all while this one is listed.",
        "description: !!binary aGVsbG8=";
    "B001", "bundle-unparseable", Error, "a bundle file Hermes skips",
        "Fix the YAML: a bundle needs a mapping with a non-empty `skills` list and a name that makes a slug.",
        "skills: [a";
    "B002", "bundle-member-missing", Error, "a bundle member that does not load",
        "Fix the name: the bundle skips members skill_view cannot load.",
        "skills: [no-such-skill]";
    "B003", "bundle-member-ambiguous", Error, "a bundle member whose name matches several skills",
        "Use the member's categorized path (`category/skill`): skill_view refuses an ambiguous name, so the member is skipped.",
        "skills: [deploy]  # two skills named deploy";
    "B004", "bundle-member-disabled", Warning, "a disabled bundle member",
        "Enable the skill or drop it from the bundle: it is skipped.",
        "skills: [legacy-notes]";
    "B005", "bundle-shadows-skill", Warning, "a bundle's command hides a skill's",
        "Rename the bundle: `/<slug>` runs the bundle, never the skill.",
        "bundle `research` and skill `research`";
    "L001", "layer-shadows-shared", Info, "a user's skill hides a shared skill of the same name (with --user)",
        "Intended for a personal variant; otherwise rename it, or the user never gets the shared skill.",
        "users/alice/skills/deploy and skills/deploy";
    "L002", "layer-row-unused", Warning, "a database skill never used: a file skill or an earlier row has its name (with --user)",
        "Rename the row or deactivate it (`is_active = 0`): file layers come first, then rows by name.",
        "row `deploy` and skills/deploy";
    "X001", "unused-suppression", Info, "a suppression comment that suppresses nothing",
        "Remove it, or fix its rule name or code: nothing it names is found on the lines it covers.",
        "<!-- skillscope-disable-next-line H024 -->  # the next line has no template";
    "X002", "file-not-checked", Info, "a file check does not read",
        "Nothing is wrong with the skill for this alone; the file's text is not checked (too large, not UTF-8 text, or unreadable).",
        "references/dump.txt  # 80 MB";
}

/// Guard patterns share a family id `guard-<pattern>`; their severity comes
/// from the pattern table (critical: error, high: warning, else info).
pub const GUARD_FAMILY: &str = "guard-";

/// The guard's own findings beyond its patterns, in code order after them:
/// invisible characters, the structural checks of `scan_skill`, and a
/// refused install (`check --trust`).
pub const GUARD_EXTRAS: [(&str, &str); 8] = [
    ("invisible_unicode", "an invisible unicode character"),
    ("symlink_escape", "a symlink that leaves the skill folder"),
    ("oversized_file", "a file over 256 KB"),
    ("binary_file", "a binary or executable file"),
    ("unexpected_executable", "an executable file that is no recognised script"),
    ("too_many_files", "more than 50 files"),
    ("oversized_skill", "a skill over 1 MB in all"),
    ("install-blocked", "a hub install at the --trust level refuses the skill"),
];

pub fn rule(id: &str) -> Option<&'static RuleInfo> {
    RULES.iter().find(|r| r.id == id)
}

/// Any rule check can report, guard patterns included.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RuleRef {
    pub code: String,
    pub name: String,
    /// What `check` reports it at unless settings say otherwise (guard
    /// findings are informational until `--trust` makes them count).
    pub severity: Severity,
    pub title: String,
    pub hint: String,
}

/// Every rule, in code order within each family: the registry that rule
/// selection, suppressions and SARIF's rule table read.
pub fn all() -> &'static [RuleRef] {
    static ALL: std::sync::OnceLock<Vec<RuleRef>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        let mut out: Vec<RuleRef> = RULES
            .iter()
            .map(|r| RuleRef {
                code: r.code.to_owned(),
                name: r.id.to_owned(),
                severity: r.severity,
                title: r.title.to_owned(),
                hint: r.hint.to_owned(),
            })
            .collect();
        let patterns = crate::guard::patterns::patterns().iter().map(|p| (p.id.as_str(), p.description.as_str()));
        for (i, (id, title)) in patterns.chain(GUARD_EXTRAS).enumerate() {
            out.push(RuleRef {
                code: format!("G{:03}", i + 1),
                name: format!("{GUARD_FAMILY}{id}"),
                severity: if id == "install-blocked" { Severity::Error } else { Severity::Info },
                title: title.to_owned(),
                hint: super::guard::HINT.to_owned(),
            });
        }
        out
    })
}

/// The rule a name or code stands for.
pub fn lookup(name_or_code: &str) -> Option<&'static RuleRef> {
    all().iter().find(|r| r.name == name_or_code || r.code == name_or_code)
}

/// The code of a rule name (`H024` for `hermes-unknown-template`).
pub fn code_of(name: &str) -> Option<&'static str> {
    all().iter().find(|r| r.name == name).map(|r| r.code.as_str())
}
