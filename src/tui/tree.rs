//! The skills tree: source roots (when there are several), categories as
//! the folders nest, skills as leaves; expand state, filtering and the rows
//! on screen. Independent of drawing.

use crate::engine::catalog::Catalog;
use crate::engine::lifecycle::{UsageMark, UsageOverview};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::path::PathBuf;

/// How skills are ordered inside each folder (`s` cycles); folders stay
/// by name.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum TreeSort {
    #[default]
    Name,
    /// Most recent use, view or patch first; never active last.
    LastActivity,
    /// Most used first.
    UseCount,
    /// Biggest line in the system-prompt index first; skills it does not
    /// show last.
    IndexCost,
}

/// What the orders other than by name read.
#[derive(Debug, Clone, Copy)]
pub struct SortBasis<'a> {
    pub usage: &'a UsageOverview,
    /// Each offered skill's tokens in the index, by SKILL.md (empty until
    /// the index is measured).
    pub index_tokens: &'a HashMap<PathBuf, usize>,
}

impl TreeSort {
    pub fn next(self) -> TreeSort {
        match self {
            TreeSort::Name => TreeSort::LastActivity,
            TreeSort::LastActivity => TreeSort::UseCount,
            TreeSort::UseCount => TreeSort::IndexCost,
            TreeSort::IndexCost => TreeSort::Name,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            TreeSort::Name => "name",
            TreeSort::LastActivity => "last activity",
            TreeSort::UseCount => "use count",
            TreeSort::IndexCost => "index cost",
        }
    }
}

/// What a node stands for; also its identity across rescans.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeKey {
    Root(usize),
    Category {
        root: usize,
        path: Vec<String>,
    },
    Skill(std::path::PathBuf),
    /// A folder the walk could not list ([`Catalog::unreadable`]).
    Unreadable(std::path::PathBuf),
    /// `skills/.archive/`: what the curator moved out of the agent's reach.
    Archive,
    Archived(std::path::PathBuf),
    /// The skills a `--since` revision has and the home no longer does.
    Removed,
    /// One of them, by its folder.
    RemovedSkill(String),
}

#[derive(Debug, Clone)]
pub struct Node {
    pub key: NodeKey,
    pub label: String,
    pub depth: usize,
    pub children: Vec<usize>,
    /// The catalog index for a skill node.
    pub skill: Option<usize>,
    /// The index in [`UsageOverview::archived`] for an archived skill.
    pub archived: Option<usize>,
    /// The index in [`Catalog::unreadable`] for a folder that cannot be listed.
    pub unreadable: Option<usize>,
    /// Skills below (or 1 for a skill).
    pub count: usize,
}

/// One visible row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub node: usize,
    pub depth: usize,
    pub expanded: bool,
    pub has_children: bool,
    /// Skills below.
    pub count: usize,
}

#[derive(Debug, Clone, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
    pub top: Vec<usize>,
    collapsed: HashSet<NodeKey>,
    /// The node of each skill, by catalog index (a search's rows look up
    /// tens of thousands at a time).
    skill_nodes: Vec<Option<usize>>,
    /// The parent of each node that has one.
    parents: HashMap<usize, usize>,
}

/// The folders of one root that hold no skill and exactly one folder:
/// each is shown on one row with that folder (`plugins/x/skills`).
fn chained_folders(
    cats: &BTreeMap<Vec<String>, Vec<usize>>,
    holds_unreadable: impl Fn(&[String]) -> bool,
) -> HashSet<Vec<String>> {
    let mut subfolders: HashMap<&[String], HashSet<&String>> = HashMap::new();
    for path in cats.keys() {
        for end in 0..path.len() {
            let entry = subfolders.entry(&path[..end]).or_default();
            entry.insert(&path[end]);
        }
    }
    subfolders
        .into_iter()
        .filter(|(folder, subs)| {
            !folder.is_empty()
                && subs.len() == 1
                && cats.get(*folder).map_or(true, Vec::is_empty)
                && !holds_unreadable(folder)
        })
        .map(|(folder, _)| folder.to_vec())
        .collect()
}

/// `local · skills`, `external 0 · team-skills`, `db · skills.db`,
/// `db (stale since 10:02:03) · postgres://db.internal/skills`.
fn root_label(root: &crate::engine::catalog::Root) -> String {
    let whole = root.path.to_string_lossy();
    let dir = if whole.contains("://") {
        whole.into_owned()
    } else {
        root.path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default()
    };
    format!("{} · {dir}", root.label)
}

impl Tree {
    /// The catalog's skills by folder, in `sort` order, and the archive
    /// as a last root of its own.
    pub fn build(catalog: &Catalog, basis: SortBasis, sort: TreeSort) -> Tree {
        let usage = basis.usage;
        // root -> category path -> skills, sorted by name.
        let mut grouped: BTreeMap<usize, BTreeMap<Vec<String>, Vec<usize>>> = BTreeMap::new();
        for (i, s) in catalog.skills.iter().enumerate() {
            grouped.entry(s.root).or_default().entry(s.categories.clone()).or_default().push(i);
        }
        // The database's root shows how it stands even without rows.
        for (i, root) in catalog.roots.iter().enumerate() {
            if root.source == Some(crate::engine::catalog::Source::Db) {
                grouped.entry(i).or_default();
            }
        }
        // Folders that cannot be listed sit where they are, beside skills.
        let mut unreadable: BTreeMap<(usize, Vec<String>), Vec<usize>> = BTreeMap::new();
        for (i, u) in catalog.unreadable.iter().enumerate() {
            let Some(root) = catalog.roots.get(u.root) else { continue };
            let categories = u.categories(&root.path);
            grouped.entry(u.root).or_default().entry(categories.clone()).or_default();
            unreadable.entry((u.root, categories)).or_default().push(i);
        }
        let mut tree = Tree { skill_nodes: vec![None; catalog.skills.len()], ..Tree::default() };
        let show_roots = catalog.roots.len() > 1;
        for (root, cats) in grouped {
            let parent = if show_roots {
                let label = catalog.roots.get(root).map(root_label).unwrap_or_default();
                let id = tree.push(NodeKey::Root(root), label, 0, None);
                tree.top.push(id);
                Some(id)
            } else {
                None
            };
            let base_depth = usize::from(show_roots);
            let chained = chained_folders(&cats, |path| unreadable.contains_key(&(root, path.to_vec())));
            for (path, mut skills) in cats {
                skills.sort_by(|a, b| catalog.skills[*a].name.cmp(&catalog.skills[*b].name));
                let mut at = parent;
                // A chain of folders that each hold one folder and no skill
                // is one row, as file trees in editors show it.
                let mut depth = base_depth;
                let mut chain_start = 0;
                for end in 0..path.len() {
                    let prefix = &path[..=end];
                    if end + 1 < path.len() && chained.contains(prefix) {
                        continue;
                    }
                    let label = path[chain_start..=end].join("/");
                    let key = NodeKey::Category { root, path: prefix.to_vec() };
                    at = Some(tree.child_or_insert(at, key, label, depth));
                    depth += 1;
                    chain_start = end + 1;
                }
                for i in skills {
                    let key = NodeKey::Skill(catalog.skills[i].skill_md.clone());
                    let id = tree.push(key, catalog.skills[i].name.clone(), depth, Some(i));
                    tree.skill_nodes[i] = Some(id);
                    match at {
                        Some(p) => tree.nodes[p].children.push(id),
                        None => tree.top.push(id),
                    }
                }
                for &u in unreadable.get(&(root, path.clone())).map_or(&[][..], Vec::as_slice) {
                    let folder = &catalog.unreadable[u];
                    let id = tree.push(NodeKey::Unreadable(folder.path.clone()), folder.name(), depth, None);
                    tree.nodes[id].unreadable = Some(u);
                    match at {
                        Some(p) => tree.nodes[p].children.push(id),
                        None => tree.top.push(id),
                    }
                }
            }
        }
        tree.sort_children(catalog, basis, sort);
        if !usage.archived.is_empty() {
            let label = "archive · not loaded".to_owned();
            let archive = tree.push(NodeKey::Archive, label, 0, None);
            tree.top.push(archive);
            for (i, a) in usage.archived.iter().enumerate() {
                let id = tree.push(NodeKey::Archived(a.path.clone()), a.name.clone(), 1, None);
                tree.nodes[id].archived = Some(i);
                tree.nodes[archive].children.push(id);
            }
        }
        for (id, node) in tree.nodes.iter().enumerate() {
            for &c in &node.children {
                tree.parents.insert(c, id);
            }
        }
        for &t in &tree.top.clone() {
            tree.count(t);
        }
        tree
    }

    fn push(&mut self, key: NodeKey, label: String, depth: usize, skill: Option<usize>) -> usize {
        let node = Node { key, label, depth, children: Vec::new(), skill, archived: None, unreadable: None, count: 0 };
        self.nodes.push(node);
        self.nodes.len() - 1
    }

    fn child_or_insert(&mut self, parent: Option<usize>, key: NodeKey, label: String, depth: usize) -> usize {
        let siblings = match parent {
            Some(p) => &self.nodes[p].children,
            None => &self.top,
        };
        if let Some(&found) = siblings.iter().find(|&&c| self.nodes[c].key == key) {
            return found;
        }
        let id = self.push(key, label, depth, None);
        match parent {
            Some(p) => self.nodes[p].children.push(id),
            None => self.top.push(id),
        }
        id
    }

    /// Categories first by label, then skills in `sort` order (ties by label).
    fn sort_children(&mut self, catalog: &Catalog, basis: SortBasis, sort: TreeSort) {
        let mark = |node: &Node| -> Option<&UsageMark> { basis.usage.mark(&catalog.skills[node.skill?]) };
        // Larger first: the key is negated; no record sorts after any.
        let rank = |node: &Node| -> i64 {
            match sort {
                TreeSort::Name => 0,
                TreeSort::LastActivity => {
                    mark(node).and_then(|m| m.last_activity).map_or(i64::MAX, |t| t.saturating_neg())
                }
                TreeSort::UseCount => mark(node).map_or(i64::MAX, |m| m.use_count.saturating_neg()),
                TreeSort::IndexCost => node
                    .skill
                    .and_then(|i| basis.index_tokens.get(&catalog.skills[i].skill_md))
                    .map_or(i64::MAX, |&t| -(t as i64)),
            }
        };
        let order = |nodes: &Vec<Node>, list: &mut Vec<usize>| {
            list.sort_by_cached_key(|&a| {
                let n = &nodes[a];
                (n.skill.is_some(), if n.skill.is_some() { rank(n) } else { 0 }, n.label.to_lowercase())
            });
        };
        let mut top = std::mem::take(&mut self.top);
        if !top.iter().any(|&t| matches!(self.nodes[t].key, NodeKey::Root(_))) {
            order(&self.nodes, &mut top);
        }
        self.top = top;
        for i in 0..self.nodes.len() {
            let mut children = std::mem::take(&mut self.nodes[i].children);
            order(&self.nodes, &mut children);
            self.nodes[i].children = children;
        }
    }

    fn count(&mut self, id: usize) -> usize {
        let n = if self.nodes[id].skill.is_some() || self.nodes[id].archived.is_some() {
            1
        } else {
            self.nodes[id].children.clone().into_iter().map(|c| self.count(c)).sum()
        };
        self.nodes[id].count = n;
        n
    }

    pub fn is_expanded(&self, id: usize) -> bool {
        !self.collapsed.contains(&self.nodes[id].key)
    }

    pub fn set_expanded(&mut self, id: usize, expanded: bool) {
        let key = self.nodes[id].key.clone();
        if expanded {
            self.collapsed.remove(&key);
        } else {
            self.collapsed.insert(key);
        }
    }

    /// Keeps the collapsed folders of an older tree (after a rescan).
    pub fn keep_expansion_of(&mut self, old: &Tree) {
        self.collapsed = old.collapsed.clone();
    }

    /// The rows on screen: every top node and the children of expanded ones.
    pub fn rows(&self) -> Vec<Row> {
        let mut rows = Vec::new();
        for &t in &self.top {
            self.collect(t, &mut rows);
        }
        rows
    }

    fn collect(&self, id: usize, rows: &mut Vec<Row>) {
        let node = &self.nodes[id];
        let expanded = self.is_expanded(id);
        let has_children = !node.children.is_empty();
        rows.push(Row { node: id, depth: node.depth, expanded, has_children, count: node.count });
        if expanded {
            for &c in &node.children {
                self.collect(c, rows);
            }
        }
    }

    /// The parent of a node, if any.
    pub fn parent(&self, id: usize) -> Option<usize> {
        self.parents.get(&id).copied()
    }

    /// The node showing a skill (catalog index).
    pub fn skill_node(&self, skill: usize) -> Option<usize> {
        self.skill_nodes.get(skill).copied().flatten()
    }

    /// Expands every folder above a node, so it has a row.
    pub fn reveal(&mut self, id: usize) {
        let mut at = self.parent(id);
        while let Some(p) = at {
            self.set_expanded(p, true);
            at = self.parent(p);
        }
    }

    /// Adds a folder of skills that are gone (`--since`), shown last.
    pub fn add_removed(&mut self, label: String, removed: &[(String, String)]) {
        if removed.is_empty() {
            return;
        }
        let folder = self.push(NodeKey::Removed, label, 0, None);
        self.top.push(folder);
        for (name, path) in removed {
            let id = self.push(NodeKey::RemovedSkill(path.clone()), name.clone(), 1, None);
            self.nodes[folder].children.push(id);
            self.parents.insert(id, folder);
            self.nodes[id].count = 1;
        }
        self.nodes[folder].count = removed.len();
    }

    pub fn find(&self, key: &NodeKey) -> Option<usize> {
        self.nodes.iter().position(|n| &n.key == key)
    }
}
