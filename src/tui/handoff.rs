//! Handing things off from the browser: what `y`/`Y` copy, what `o`
//! pages, and Enter on a finding jumping to its skill and line.

use super::app::{App, CopyItem, Focus, ViewTab};
use super::jobs::JobOutput;
use crate::engine::paths::path_string;

impl App {
    /// Everything the copy menu offers for the selection.
    pub fn copy_items(&self) -> Vec<CopyItem> {
        let mut items = Vec::new();
        if let Some(a) = self.selected_archived() {
            let a = &self.usage.archived[a];
            let skill_md = a.path.join("SKILL.md");
            items.push(CopyItem { key: 'p', label: "SKILL.md path", text: path_string(&skill_md) });
            items.push(CopyItem { key: 'd', label: "archived folder", text: path_string(&a.path) });
            items.push(CopyItem { key: 'r', label: "restore command", text: a.restore.clone() });
            items.push(CopyItem { key: 'n', label: "name", text: a.name.clone() });
            return items;
        }
        let Some(i) = self.selected_skill() else {
            // A skill removed since the revision: what it was.
            if let (Some(folder), Some(answer)) = (self.selected_removed(), self.since_answer()) {
                if let Some((name, folder, diff)) = answer.removed.iter().find(|(_, f, _)| f == folder) {
                    items.push(CopyItem { key: 'd', label: "folder it was in", text: folder.clone() });
                    if !diff.is_empty() {
                        items.push(CopyItem { key: 'm', label: "its SKILL.md's diff", text: diff.clone() });
                    }
                    items.push(CopyItem { key: 'n', label: "name", text: name.clone() });
                }
                return items;
            }
            if let Some(path) = self.selected_folder_path() {
                items.push(CopyItem { key: 'p', label: "folder path", text: path });
            }
            return items;
        };
        let skill = self.skill(i);
        if skill.db_row.is_none() {
            items.push(CopyItem { key: 'p', label: "SKILL.md path", text: path_string(&skill.skill_md) });
            items.push(CopyItem { key: 'd', label: "skill folder", text: path_string(&skill.skill_dir) });
            let runtime = self.engine.runtime_path(&skill.skill_dir).path;
            items.push(CopyItem { key: 'r', label: "runtime path", text: runtime });
        }
        if let Some(message) = self.agent_message(i) {
            items.push(CopyItem { key: 'm', label: "agent message", text: message });
        }
        items.push(CopyItem { key: 'n', label: "name", text: skill.name.clone() });
        items
    }

    /// What `y` copies: the message in the Agent view, the selected file
    /// in Files, else the SKILL.md path (or the folder's path; of a skill
    /// removed since the revision, its SKILL.md's diff).
    pub fn copy_target(&self) -> Option<CopyItem> {
        let items = self.copy_items();
        let pick = |key: char| items.iter().find(|i| i.key == key).cloned();
        if self.focus == Focus::View {
            match self.view.tab {
                ViewTab::Agent => return pick('m').or_else(|| pick('p')),
                ViewTab::Files => {
                    let skill = self.skill(self.selected_skill()?);
                    let entry = self.file_entries().and_then(|files| files.get(self.view.file_cursor));
                    if let Some(entry) = entry {
                        let text = path_string(&skill.skill_dir.join(&entry.rel));
                        return Some(CopyItem { key: 'f', label: "file path", text });
                    }
                }
                _ => {}
            }
        }
        if self.view.tab == ViewTab::Agent {
            return pick('m').or_else(|| pick('p'));
        }
        // A removed skill has no path now: its diff, else where it was.
        pick('p').or_else(|| pick('m')).or_else(|| pick('d'))
    }

    /// The path of the selected folder row, when it is a folder on disk.
    fn selected_folder_path(&self) -> Option<String> {
        let row = self.selected_row()?;
        match &self.nav.tree.nodes[row.node].key {
            super::tree::NodeKey::Root(r) => self.catalog.roots.get(*r).map(|r| path_string(&r.path)),
            super::tree::NodeKey::Category { root, path } => {
                self.catalog.roots.get(*root).map(|r| path_string(&path.iter().fold(r.path.clone(), |p, c| p.join(c))))
            }
            super::tree::NodeKey::Archive => Some(path_string(&self.engine.home.skills_dir.join(".archive"))),
            super::tree::NodeKey::Unreadable(path) => Some(path_string(path)),
            super::tree::NodeKey::Skill(_)
            | super::tree::NodeKey::Archived(_)
            | super::tree::NodeKey::Removed
            | super::tree::NodeKey::RemovedSkill(_) => None,
        }
    }

    /// The message the agent receives for the skill's command, once the
    /// Agent view's job has answered for this skill (building it may run
    /// inline shell: never on the UI thread).
    fn agent_message(&self, i: usize) -> Option<String> {
        let skill = self.skill(i);
        skill.status.command.as_ref()?;
        match &self.jobs.agent {
            Some((super::jobs::JobKind::Agent { skill_md, .. }, JobOutput::Agent { message, .. }))
                if *skill_md == skill.skill_md =>
            {
                message.clone()
            }
            _ => None,
        }
    }

    /// The current view as plain text (for the pager): the lines on screen
    /// (a view still being built gives its placeholder).
    pub fn view_text(&self) -> String {
        self.shown().map(|view| crate::tui::markdown::plain(&view.lines)).unwrap_or_default()
    }

    /// Enter on a finding: select its skill and show the line it names,
    /// in the raw SKILL.md (numbered) or in Files for another file.
    pub fn jump_to_finding(&mut self) {
        let Some(f) = self.visible_findings().get(self.view.diag.cursor).map(|f| (*f).clone()) else { return };
        let Some(skill) = f.skill else {
            let at = f.line.map_or(String::new(), |l| format!(":{l}"));
            self.notice = Some(format!("{}{at} belongs to no skill; press e to open it", f.rel_path));
            return;
        };
        if !self.reveal_skill(skill) {
            return;
        }
        let s = self.skill(skill);
        if *f.path == *s.skill_md {
            self.view.tab = ViewTab::Preview;
            self.view.raw = true;
            self.view.scroll = f.line.unwrap_or(1).saturating_sub(1);
            self.view.h_scroll = 0;
        } else {
            // The cursor goes to the file when the folder's files are listed.
            let rel = f.path.strip_prefix(&s.skill_dir).map(path_string).unwrap_or_default();
            self.view.tab = ViewTab::Files;
            match self.file_entries().map(|e| e.iter().position(|e| e.rel == rel)) {
                Some(at) => self.view.file_cursor = at.unwrap_or(0),
                None => self.view.file_wanted = Some(rel),
            }
            self.view.scroll = 0;
        }
        self.focus = Focus::View;
    }
}
