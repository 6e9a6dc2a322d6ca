//! Rendered views, kept by what they show ([`ViewKey`]) within a budget of
//! bytes, the least recently used dropped first.

use super::tab::ViewTab;
use super::tree::NodeKey;
use crate::engine::diagnostics::Severity;
use ratatui::text::Line;
use std::collections::HashMap;
use std::sync::Arc;

/// How much rendered text the cache keeps (about a thousand previews of
/// a typical skill); past it the least recently shown go.
pub const CACHE_BYTES: usize = 16 * 1024 * 1024;

/// What a view's lines show: the same key, the same lines.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ViewKey {
    /// [`App`](super::app::App)'s generation: bumped by a rescan or another backend.
    pub generation: u64,
    pub selection: Option<NodeKey>,
    pub tab: ViewTab,
    pub width: u16,
    pub variant: Variant,
}

/// What else a view's lines depend on, per tab.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Variant {
    Plain,
    /// The raw SKILL.md, numbered.
    Raw,
    /// The Preview or Agent view as its diff against `--since` (`d`): kept
    /// apart from the plain view, whose job may still answer after `d`.
    SinceDiff,
    /// The Files view with its cursor on this file.
    Files {
        cursor: usize,
    },
    /// The folder's files and a first preview (a job's request).
    Entries,
    /// The preview of one file of the folder (by relative path).
    File(String),
    Findings {
        all: bool,
        min: Severity,
        cursor: usize,
    },
    /// Nothing selected: the text names the search that matched nothing.
    NoMatch(String),
}

/// A view's lines as rendered for a width, and the widest of them (lines
/// wider than the view, code, scroll sideways).
#[derive(Debug, Default)]
pub struct Rendered {
    pub lines: Vec<Line<'static>>,
    pub max_width: usize,
    /// Unique to this rendering: a view search follows the text on screen,
    /// whichever key it was cached under.
    pub serial: u64,
    /// About how much memory the lines hold.
    bytes: usize,
}

impl Rendered {
    pub fn new(lines: Vec<Line<'static>>) -> Rendered {
        static SERIAL: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let max_width = super::view_text::max_width(&lines);
        let serial = SERIAL.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let bytes = std::mem::size_of::<Line>() * lines.capacity()
            + lines
                .iter()
                .flat_map(|l| &l.spans)
                .map(|s| std::mem::size_of::<ratatui::text::Span>() + s.content.len())
                .sum::<usize>();
        Rendered { lines, max_width, serial, bytes }
    }
}

/// Rendered views by key, within a budget of bytes.
#[derive(Debug)]
pub struct RenderCache {
    entries: HashMap<ViewKey, (Arc<Rendered>, u64)>,
    budget: usize,
    used: usize,
    clock: u64,
}

impl RenderCache {
    pub fn new(budget: usize) -> RenderCache {
        RenderCache { entries: HashMap::new(), budget, used: 0, clock: 0 }
    }

    pub fn get(&mut self, key: &ViewKey) -> Option<Arc<Rendered>> {
        self.clock += 1;
        let (rendered, used) = self.entries.get_mut(key)?;
        *used = self.clock;
        Some(rendered.clone())
    }

    /// Keeps `rendered`, then drops the least recently used others until
    /// the cache is within its budget (the newest stays, however big).
    pub fn insert(&mut self, key: ViewKey, rendered: Arc<Rendered>) {
        self.clock += 1;
        self.used += rendered.bytes;
        if let Some((old, _)) = self.entries.insert(key.clone(), (rendered, self.clock)) {
            self.used -= old.bytes;
        }
        while self.used > self.budget && self.entries.len() > 1 {
            let oldest = self.entries.iter().filter(|(k, _)| **k != key).min_by_key(|(_, (_, used))| *used);
            let Some(oldest) = oldest.map(|(k, _)| k.clone()) else { break };
            if let Some((old, _)) = self.entries.remove(&oldest) {
                self.used -= old.bytes;
            }
        }
    }

    pub fn retain(&mut self, keep: impl Fn(&ViewKey) -> bool) {
        let before = self.entries.len();
        self.entries.retain(|k, _| keep(k));
        if self.entries.len() != before {
            self.used = self.entries.values().map(|(r, _)| r.bytes).sum();
        }
    }

    pub fn clear(&mut self) {
        self.entries.clear();
        self.used = 0;
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The bytes held, as [`Rendered`] counts them.
    pub fn bytes(&self) -> usize {
        self.used
    }
}

/// Frees a big value on another thread: dropping a catalog of 100,000
/// skills, or their findings, takes longer than a frame.
pub fn drop_elsewhere<T: Send + 'static>(value: T) {
    std::thread::spawn(move || drop(value));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(n: u16) -> ViewKey {
        ViewKey { generation: 1, selection: None, tab: ViewTab::Preview, width: n, variant: Variant::Plain }
    }

    #[test]
    fn the_cache_keeps_to_its_budget_dropping_the_least_recently_used() {
        let lines = || Arc::new(Rendered::new((0..100).map(|i| Line::from(format!("line {i} of text"))).collect()));
        let one = lines().bytes;
        let mut cache = RenderCache::new(one * 3);
        for n in 0..3 {
            cache.insert(key(n), lines());
        }
        assert!(cache.get(&key(0)).is_some(), "used again: now the most recent");
        cache.insert(key(3), lines());
        assert_eq!(cache.len(), 3);
        assert!(cache.get(&key(1)).is_none(), "the least recently used went");
        assert!(cache.get(&key(0)).is_some() && cache.get(&key(3)).is_some());
        assert!(cache.bytes() <= one * 3);
        let big = Arc::new(Rendered::new((0..1000).map(|i| Line::from(format!("line {i}"))).collect()));
        cache.insert(key(9), big);
        assert_eq!(cache.len(), 1, "the newest stays, however big");
        cache.retain(|_| false);
        assert_eq!((cache.len(), cache.bytes()), (0, 0));
    }
}
