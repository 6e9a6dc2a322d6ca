//! A faithful model of the Hermes Agent 0.19.0 skills engine.
//!
//! No terminal code lives here, and the crate depends on nothing that
//! draws (the compiler keeps it so: the browser is another crate). Each surface (`skills_list`, `skill_view`,
//! slash commands, bundles, preload, the system-prompt index, sandbox mounts)
//! returns the JSON Hermes would return for the same home, so the CLI and the
//! browser show exactly what the agent receives.

pub mod bundles;
pub mod catalog;
pub mod check;
pub mod commands;
pub mod comment;
pub mod confusable;
pub mod context;
pub mod cost;
pub mod db;
pub mod diagnostics;
pub mod diff;
pub mod dirfd;
pub mod discover;
pub mod env;
pub mod frontmatter;
pub mod gates;
pub mod guard;
pub mod hermes_install;
pub mod home;
pub mod isotime;
pub mod layers;
pub mod lifecycle;
pub mod list;
pub mod listing;
pub mod messages;
pub mod overlay;
pub mod paths;
pub mod posture;
pub mod preprocess;
pub mod prompt;
pub mod py;
mod py_printable;
pub mod readiness;
pub mod reload;
pub mod sandbox;
pub mod sanitize;
pub mod scan;
pub mod similar;
pub mod skill;
pub mod source;
pub mod symlink;
pub mod tokens;
pub mod value;
pub mod view;
pub mod watch;
pub mod why;
pub mod words;
pub mod yaml;

use env::Env;
use home::Home;
use std::path::{Path, PathBuf};

/// Choices the user makes for a session that Hermes takes from elsewhere.
#[derive(Debug, Clone)]
pub struct Options {
    /// The session id substituted for `${HERMES_SESSION_ID}` (Hermes' task id).
    pub session_id: String,
    /// The user's consent to run `` !`cmd` `` snippets when config enables them.
    pub allow_inline_shell: bool,
    /// The terminal backend the agent runs commands on.
    pub backend: sandbox::Backend,
    /// The remote user's home for ssh and daytona (default `~`, `/root`).
    pub remote_home: Option<String>,
    /// Show the host paths Hermes 0.19.0 hands the agent even on a remote
    /// backend (where they do not exist), instead of the sandbox paths.
    pub hermes_paths: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            session_id: "preview".into(),
            allow_inline_shell: false,
            backend: sandbox::Backend::Local,
            remote_home: None,
            hermes_paths: false,
        }
    }
}

/// One home, evaluated against one environment.
#[derive(Debug, Clone)]
pub struct Engine {
    pub home: Home,
    pub env: Env,
    pub options: Options,
}

impl Engine {
    /// The folder the agent is shown for a skill folder: the sandbox path on
    /// a remote backend, unless Hermes' own host paths were asked for.
    pub fn shown_skill_dir(&self, host: &Path) -> String {
        if self.options.hermes_paths {
            paths::path_string(host)
        } else {
            self.runtime_path(host).path
        }
    }

    pub fn new(home_root: PathBuf, env: Env, options: Options) -> Engine {
        let home = Home::load(home_root, &env);
        Engine { home, env, options }
    }

    /// `_get_category_from_path`: the first folder under the first root the
    /// SKILL.md lies in, when it is at least two folders deep.
    pub fn listing_category(&self, skill_md: &Path) -> Option<String> {
        for root in self.home.all_skills_dirs() {
            if let Some(rel) = paths::relative_to(skill_md, &root) {
                let parts = paths::parts(rel);
                if parts.len() >= 3 {
                    return Some(parts[0].clone());
                }
            }
        }
        None
    }
}

/// Sorts `items` (stably, by `compare`) moving each at most once: their
/// places are sorted, then the items swapped into them. Sorting large items
/// themselves copies each a dozen times.
pub(crate) fn sort_large_by<T>(items: &mut [T], compare: impl Fn(&T, &T) -> std::cmp::Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by(|&a, &b| compare(&items[a], &items[b]));
    apply_order(items, &order);
}

/// Puts at each place `i` the item that was at `order[i]` (`order` holds
/// each place once), by swaps within the list.
pub(crate) fn apply_order<T>(items: &mut [T], order: &[usize]) {
    let mut placed = vec![false; items.len()];
    for start in 0..items.len() {
        let mut at = start;
        while !placed[at] {
            placed[at] = true;
            let from = order[at];
            if from == start {
                break;
            }
            items.swap(at, from);
            at = from;
        }
    }
}

/// Runs `f` over `items` on all cores, keeping the input order.
pub fn parallel_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    parallel_map_min(items, 64, f)
}

/// [`parallel_map`], going parallel from `min_items` items on.
pub fn parallel_map_min<T: Sync, R: Send>(items: &[T], min_items: usize, f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    in_chunks(items, min_items, |part| part.iter().map(&f).collect())
}

/// [`parallel_map_min`] keeping only the `Some` answers, in order: each
/// thread keeps its own, and they are joined once (no vector of options).
pub fn parallel_filter_map_min<T: Sync, R: Send>(
    items: &[T],
    min_items: usize,
    f: impl Fn(&T) -> Option<R> + Sync,
) -> Vec<R> {
    in_chunks(items, min_items, |part| part.iter().filter_map(&f).collect())
}

/// Runs `each` on one chunk of `items` per core (on this thread alone below
/// `min_items`) and joins the answers in order.
pub(crate) fn in_chunks<T: Sync, R: Send>(
    items: &[T],
    min_items: usize,
    each: impl Fn(&[T]) -> Vec<R> + Sync,
) -> Vec<R> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get()).min(8);
    if threads <= 1 || items.len() < min_items {
        return each(items);
    }
    let chunk = items.len().div_ceil(threads);
    let parts: Vec<Vec<R>> = std::thread::scope(|scope| {
        let handles: Vec<_> = items.chunks(chunk).map(|part| scope.spawn(listing::carried(|| each(part)))).collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))).collect()
    });
    let mut out = Vec::with_capacity(parts.iter().map(Vec::len).sum());
    for part in parts {
        out.extend(part);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each place gets the item its order names, whatever the cycles.
    #[test]
    fn apply_order_moves_each_item_to_its_place() {
        let orders: [&[usize]; 5] = [&[], &[0, 1, 2], &[2, 0, 1], &[1, 0, 3, 2, 4], &[4, 3, 0, 1, 2]];
        for order in orders {
            let items: Vec<char> = "abcde".chars().take(order.len()).collect();
            let expected: Vec<char> = order.iter().map(|&i| items[i]).collect();
            let mut moved = items.clone();
            apply_order(&mut moved, order);
            assert_eq!(moved, expected, "{order:?}");
        }
    }

    /// The order `sort_by` gives, equal items kept as they came.
    #[test]
    fn sorting_large_items_is_a_stable_sort() {
        let items: Vec<(u8, usize)> = [3u8, 1, 3, 0, 1, 2, 3, 0].iter().enumerate().map(|(i, &k)| (k, i)).collect();
        let mut expected = items.clone();
        expected.sort_by_key(|&(k, _)| k);
        let mut sorted = items;
        sort_large_by(&mut sorted, |a, b| a.0.cmp(&b.0));
        assert_eq!(sorted, expected);
    }
}
