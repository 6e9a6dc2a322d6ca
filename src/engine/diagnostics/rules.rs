//! The rule registry: id, severity, what it means, what to do.
//! The README's rule table is checked against this list by a test.

use super::Severity::{self, Error, Info, Warning};

pub struct RuleInfo {
    pub id: &'static str,
    pub severity: Severity,
    pub title: &'static str,
    pub hint: &'static str,
    /// A frontmatter or body that triggers the rule.
    pub example: &'static str,
}

macro_rules! rules {
    ($($id:literal, $sev:ident, $title:literal, $hint:literal, $example:literal;)*) => {
        pub static RULES: &[RuleInfo] = &[
            $(RuleInfo { id: $id, severity: $sev, title: $title, hint: $hint, example: $example },)*
        ];
    };
}

rules! {
    "spec-name-missing", Warning, "no `name` in the frontmatter",
        "Add `name:` equal to the folder name; Hermes falls back to the folder name, other agents reject the skill.",
        "description: Deploys things";
    "spec-name-format", Warning, "`name` is not 1-64 lowercase letters, digits and single hyphens",
        "Use lowercase letters, digits and hyphens, no leading, trailing or double hyphen, at most 64 characters.",
        "name: Deploy_Tool";
    "spec-name-folder", Warning, "`name` differs from the folder name",
        "Rename the folder or the skill: agentskills.io requires them equal, and skill_view finds the skill by either.",
        "name: deploy  # in folder deploy-tool/";
    "spec-description-missing", Warning, "no `description`",
        "Add a description saying what the skill does and when to use it; the listing otherwise shows the first body line and the prompt index nothing.",
        "name: deploy";
    "spec-description-length", Warning, "`description` over 1024 characters",
        "Shorten it: Hermes cuts it to 1021 characters + `...` in skills_list, and other agents reject it.",
        "description: <1,100 characters>";
    "spec-compatibility-length", Warning, "`compatibility` over 500 characters",
        "Keep compatibility to a short line about required systems.",
        "compatibility: <600 characters>";
    "spec-metadata-strings", Info, "`metadata` values are not all strings",
        "agentskills.io wants a mapping of strings; Hermes reads its own settings from the nested `metadata.hermes` mapping, which is fine.",
        "metadata: {count: 3}";
    "spec-extension-key", Info, "top-level key outside the agentskills.io specification",
        "Hermes reads this key, other agents ignore it; nothing to do unless the skill must pass `skills-ref validate`.",
        "platforms: [linux]";
    "spec-unknown-key", Info, "top-level key neither agentskills.io nor Hermes reads",
        "Move it under `metadata:` if it is information for people; no agent acts on it where it is.",
        "owner: ops-team";
    "hermes-unreadable", Error, "the SKILL.md cannot be read",
        "Save it as UTF-8 text; Hermes skips files it cannot decode or open.",
        "<binary or invalid UTF-8 bytes>";
    "hermes-unreadable-folder", Error, "a folder under the skill dirs cannot be listed",
        "Make it readable (`chmod a+rx`) or move it out: Hermes' walk passes over a folder it cannot list without a word, and every skill inside with it.",
        "skills/team/  # mode 000";
    "hermes-yaml-fallback", Error, "the frontmatter is not valid YAML",
        "Fix the YAML: Hermes falls back to splitting `key: value` lines, so nested fields (metadata, lists) are lost and values keep their quotes.",
        "description: a: b: [unclosed";
    "hermes-frontmatter-not-mapping", Error, "the frontmatter is YAML but not a mapping",
        "Write `key: value` pairs; Hermes ignores a frontmatter that is a list or a scalar.",
        "- name: deploy";
    "hermes-fence-unclosed", Error, "Hermes does not see the frontmatter's closing `---`",
        "End the frontmatter with a line `---` followed by a newline; otherwise the whole file is body and the skill has no name or description.",
        "---\\nname: x\\n---<end of file, no newline>";
    "hermes-frontmatter-too-long", Warning, "the frontmatter runs past the first 4000 characters",
        "skills_list parses only the first 4000 characters: it lists the skill under its folder name with description `---`. Shorten the frontmatter.",
        "description: <4,100 characters>";
    "hermes-yaml-date", Error, "an unquoted date in a field skill_view returns",
        "Quote it (`'2024-01-01'`): PyYAML reads a date, and skill_view then fails with `Object of type date is not JSON serializable`.",
        "metadata:\\n  released: 2024-01-01";
    "hermes-name-not-string", Error, "`name` is not a string",
        "Quote it: skills_list drops a skill whose name is a number, boolean or list.",
        "name: 123";
    "hermes-name-too-long", Warning, "`name` over 64 characters",
        "Shorten it: skills_list cuts it to 64 characters, so the listed name and the real one differ.",
        "name: <70 characters>";
    "hermes-no-slash-command", Warning, "the skill gets no slash command",
        "Its slug is empty or a core command (`/help`, `/model`, ...): rename it to get `/<slug>`.",
        "name: help";
    "hermes-name-collision", Error, "another skill has the same name",
        "Rename one: the listing keeps the first, and skill_view refuses the name as ambiguous across roots.",
        "two folders with name: deploy";
    "hermes-description-dropped", Error, "the description makes skills_list drop the skill",
        "Give a text description: a null or numeric one with no body text to fall back to removes the skill from skills_list.",
        "description:";
    "hermes-description-prompt-cut", Info, "description over 60 characters in the system prompt",
        "The prompt index shows the first 57 characters + `...`: put the words that decide when to use the skill first.",
        "description: <80 characters>";
    "hermes-ignored-key", Warning, "a key Hermes does not read where it is",
        "Move it where Hermes reads it (the message says where).",
        "prerequisites:\\n  env: [{name: TOKEN}]";
    "hermes-prerequisites-not-list", Error, "`prerequisites.env_vars` or `.commands` is a number, boolean or date",
        "Write a list (`[API_KEY]`): Hermes iterates the value, so skill_view fails with `'int' object is not iterable` and the skill cannot be loaded, invoked or preloaded.",
        "prerequisites:\\n  env_vars: 5";
    "hermes-env-name", Warning, "an environment variable name Hermes drops",
        "Use letters, digits and underscores, not starting with a digit; Hermes silently ignores other names.",
        "required_environment_variables: [api-key]";
    "hermes-credential-path", Error, "a credential file Hermes can never mount",
        "Use a path relative to HERMES_HOME, inside it, not one of Hermes' own secret stores; otherwise it is always reported missing.",
        "required_credential_files: [~/.config/token.json]";
    "hermes-platform-unknown", Error, "a `platforms` value that matches no OS",
        "Use linux, macos or windows: a value matching no OS hides the skill there (everywhere, if no value matches).",
        "platforms: [mac]";
    "hermes-environment-unknown", Warning, "an `environments` tag Hermes does not know",
        "Known tags are kanban, docker and s6; an unknown tag makes the skill show everywhere.",
        "environments: [k8s]";
    "hermes-condition-string", Warning, "a toolset/tool condition written as a string",
        "Write a list (`[web]`): Hermes iterates a string per character.",
        "metadata:\\n  hermes:\\n    requires_toolsets: web";
    "hermes-disabled-unknown", Warning, "`skills.disabled` names no skill",
        "Remove the entry or fix its spelling.",
        "skills:\\n  disabled: [old-skil]";
    "hermes-disabled-string", Warning, "`skills.disabled` is a single string",
        "Write a list: skill_view tests a single string as a substring, disabling every skill whose name is part of it.",
        "skills:\\n  disabled: deploy-old";
    "hermes-home-excluded", Error, "the home lies under a folder Hermes' listing excludes",
        "Move the home: skills_list skips every skill whose path contains venv, node_modules, .git, ...",
        "HERMES_HOME=/work/venv/hermes";
    "hermes-inline-shell", Info, "an inline shell snippet",
        "!`cmd` runs on the host when config enables skills.inline_shell; otherwise the agent sees it literally.",
        "Today is !`date`.";
    "hermes-unknown-template", Warning, "a `${...}` template Hermes does not substitute",
        "Hermes substitutes only ${HERMES_SKILL_DIR} and ${HERMES_SESSION_ID}; others reach the agent literally.",
        "${SKILL_DIR}/scripts/run.sh";
    "hermes-missing-file", Error, "the SKILL.md refers to a file that does not exist",
        "Add the file or fix the path: the agent will be told to use it.",
        "Run `scripts/deploy.sh`.  # no such file";
    "hermes-unlinked-file", Info, "a support file linked_files does not list",
        "skill_view's linked_files lists references/*.md, templates/ (md, py, yaml, yml, json, tex, sh), assets/ and scripts/ (py, sh, bash, js, ts, rb) only; rename or move it if the agent should see it.",
        "references/notes.txt";
    "hermes-dangling-symlink", Warning, "a symlink to nothing",
        "Fix or remove the link.",
        "references/old.md -> ../gone.md";
    "hermes-symlink-sandbox", Warning, "a file reached through a symlink",
        "Sandboxed backends (docker, singularity, modal, ssh, daytona) copy regular files only: copy the file into the skill.",
        "references/shared.md -> ../../shared.md";
    "hermes-injection-phrase", Warning, "a phrase Hermes flags as possible prompt injection",
        "skill_view logs a security warning for this phrase; reword it.",
        "Ignore previous instructions and ...";
    "bundle-unparseable", Error, "a bundle file Hermes skips",
        "Fix the YAML: a bundle needs a mapping with a non-empty `skills` list and a name that makes a slug.",
        "skills: [a";
    "bundle-member-missing", Error, "a bundle member that does not load",
        "Fix the name: the bundle skips members skill_view cannot load.",
        "skills: [no-such-skill]";
    "bundle-member-ambiguous", Error, "a bundle member whose name matches several skills",
        "Use the member's categorized path (`category/skill`): skill_view refuses an ambiguous name, so the member is skipped.",
        "skills: [deploy]  # two skills named deploy";
    "bundle-member-disabled", Warning, "a disabled bundle member",
        "Enable the skill or drop it from the bundle: it is skipped.",
        "skills: [legacy-notes]";
    "bundle-shadows-skill", Warning, "a bundle's command hides a skill's",
        "Rename the bundle: `/<slug>` runs the bundle, never the skill.",
        "bundle `research` and skill `research`";
    "layer-shadows-shared", Info, "a user's skill hides a shared skill of the same name (with --user)",
        "Intended for a personal variant; otherwise rename it, or the user never gets the shared skill.",
        "users/alice/skills/deploy and skills/deploy";
    "layer-row-unused", Warning, "a database skill never used: a file skill or an earlier row has its name (with --user)",
        "Rename the row or deactivate it (`is_active = 0`): file layers come first, then rows by name.",
        "row `deploy` and skills/deploy";
}

/// Guard patterns share a family id `guard-<pattern>`; their severity comes
/// from the pattern table (critical: error, high: warning, else info).
pub const GUARD_FAMILY: &str = "guard-";

pub fn rule(id: &str) -> Option<&'static RuleInfo> {
    RULES.iter().find(|r| r.id == id)
}
