//! What skills cost the agent: the system-prompt index as Hermes renders it
//! ([`crate::prompt`]), measured whole, by category and by skill line, and
//! what loading a skill costs (its `skill_view` content and the message its
//! slash command sends). Characters (Python's `len()`) and UTF-8 bytes are
//! exact; tokens are counted with OpenAI's encodings ([`crate::tokens`]).

use crate::context::Context;
use crate::paths;
use crate::prompt::{IndexRequest, PromptIndex};
use crate::py::PyError;
use crate::Engine;
use serde::Serialize;
use serde_json::Value as Json;
use std::collections::HashMap;
use std::path::PathBuf;

pub use crate::tokens::Tokenizer;

/// How big a text is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Size {
    /// Unicode scalar values: Python's `len()`, what budgets count.
    pub chars: usize,
    pub bytes: usize,
    pub tokens: usize,
}

fn add(a: Size, b: Size) -> Size {
    Size { chars: a.chars + b.chars, bytes: a.bytes + b.bytes, tokens: a.tokens + b.tokens }
}

impl Size {
    pub fn of(text: &str, tokenizer: Tokenizer) -> Size {
        Size { chars: text.chars().count(), bytes: text.len(), tokens: tokenizer.count(text) }
    }
}

/// One category of the index.
#[derive(Debug, Clone, PartialEq)]
pub struct CategoryCost {
    pub category: String,
    pub skills: usize,
    /// Shown names-only.
    pub demoted: bool,
    pub size: Size,
}

/// One skill the index's walk read.
#[derive(Debug, Clone, PartialEq)]
pub struct SkillCost {
    pub name: String,
    pub category: String,
    pub skill_md: Option<PathBuf>,
    /// In the index.
    pub offered: bool,
    /// Its line in the index (its name and separator in a names-only
    /// category); nothing when not offered.
    pub line: Option<String>,
    pub index: Size,
    pub loaded: Option<Loaded>,
}

/// What loading a skill puts in the conversation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loaded {
    /// The `content` of `skill_view(name)`: what the agent reads when it
    /// loads the skill from the index.
    pub view: Size,
    /// skill_view's error, when it fails on the skill (`view` is then empty).
    pub error: Option<String>,
    /// The message its slash command sends (`/name`), when it has one.
    pub message: Option<Size>,
}

/// The cost of a home's skills.
#[derive(Debug, Clone, PartialEq)]
pub struct CostReport {
    pub tokenizer: Tokenizer,
    pub index: Size,
    /// The index's text around its categories (its instructions and footer).
    pub frame: Size,
    /// Most tokens first.
    pub categories: Vec<CategoryCost>,
    /// Most tokens in the index first, then by name.
    pub skills: Vec<SkillCost>,
    /// The categories shown names-only.
    pub compact: Vec<String>,
}

/// Token budgets (`[cost]`): what `cost-index-budget` and
/// `cost-skill-budget` hold the skills to.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct CostBudgets {
    /// The whole system-prompt index.
    pub max_index_tokens: Option<usize>,
    /// One SKILL.md, as the agent reads it when it loads the skill.
    pub max_skill_tokens: Option<usize>,
}

impl CostBudgets {
    pub fn is_empty(&self) -> bool {
        self.max_index_tokens.is_none() && self.max_skill_tokens.is_none()
    }
}

/// What name lookups and commands are prepared from: a lean catalog and
/// the `*.md` names below its roots.
struct Lookups {
    catalog: crate::catalog::Catalog,
    md_names: std::collections::HashSet<std::ffi::OsString>,
}

/// What a report measures.
#[derive(Debug, Clone, Default)]
pub struct CostRequest {
    pub index: IndexRequest,
    pub tokenizer: Tokenizer,
    /// Measure what loading each skill costs too (reads every SKILL.md).
    pub loaded: bool,
}

impl Engine {
    /// The cost of the index the request asks for, and of its skills.
    pub fn cost(&self, request: &CostRequest) -> Result<CostReport, PyError> {
        self.index_and_cost(request).map(|(_, report)| report)
    }

    /// The index the request asks for and its cost. With `loaded`, one walk
    /// of the skills serves the index, the name lookups and the commands.
    pub fn index_and_cost(&self, request: &CostRequest) -> Result<(PromptIndex, CostReport), PyError> {
        request.tokenizer.prepare_in_background();
        if !request.loaded {
            let index = self.prompt_index(&request.index)?;
            let report = self.cost_of(&index, request);
            return Ok((index, report));
        }
        let (catalog, md_names, walks) = self.lean_catalog_and_index_walks();
        let index = self.prompt_index_reusing(&request.index, walks)?;
        let report = self.cost_measured(&index, request, Some(Lookups { catalog, md_names }));
        Ok((index, report))
    }

    /// Measures an index already built. Each line of the index ends in a
    /// newline and no line is blank, so both encodings' pre-tokenizers end a
    /// piece at every line's end and the index's tokens are the sum of its
    /// lines' (a names-only category is one line; a test holds the sum to the
    /// whole text's count). The lines are encoded in parallel.
    pub fn cost_of(&self, index: &PromptIndex, request: &CostRequest) -> CostReport {
        self.cost_measured(index, request, None)
    }

    /// [`Engine::cost_of`], looking skills up in `lookups` when given.
    fn cost_measured(&self, index: &PromptIndex, request: &CostRequest, lookups: Option<Lookups>) -> CostReport {
        let tokenizer = request.tokenizer;
        // An index without skills is no text at all.
        let (head, tail) = if index.is_empty() { ("", "") } else { index.frame() };
        let headers: Vec<String> = index.categories.iter().map(|c| c.header_line()).collect();
        let mut texts: Vec<&str> = vec![head, tail];
        texts.extend(headers.iter().map(String::as_str));
        texts.extend(index.categories.iter().flat_map(|c| c.skills.iter().map(|s| s.text.as_str())));
        let sizes = crate::parallel_map_min(&texts, 256, |t| Size::of(t, tokenizer));
        let frame = add(sizes[0], sizes[1]);
        let (header_sizes, mut line_sizes) = sizes[2..].split_at(headers.len());
        let mut whole = frame;
        let mut categories = Vec::with_capacity(index.categories.len());
        let mut skills: Vec<SkillCost> = Vec::new();
        for (category, &header) in index.categories.iter().zip(header_sizes) {
            let mut size = header;
            let (own, rest) = line_sizes.split_at(category.skills.len());
            line_sizes = rest;
            for (s, &line) in category.skills.iter().zip(own) {
                if !category.demoted {
                    size = add(size, line);
                }
                skills.push(SkillCost {
                    name: s.name.clone(),
                    category: category.name.clone(),
                    skill_md: s.path.clone(),
                    offered: true,
                    line: Some(s.text.clone()),
                    index: line,
                    loaded: None,
                });
            }
            whole = add(whole, size);
            categories.push(CategoryCost {
                category: category.name.clone(),
                skills: category.skills.len(),
                demoted: category.demoted,
                size,
            });
        }
        categories.sort_by(|a, b| {
            (b.size.tokens, b.size.chars).cmp(&(a.size.tokens, a.size.chars)).then_with(|| a.category.cmp(&b.category))
        });
        for l in &index.left_out {
            skills.push(SkillCost {
                name: l.name.clone(),
                category: l.category.clone(),
                skill_md: l.path.clone(),
                offered: false,
                line: None,
                index: Size::default(),
                loaded: None,
            });
        }
        if request.loaded {
            let lookups = lookups.unwrap_or_else(|| {
                let (catalog, md_names, _) = self.lean_catalog_and_index_walks();
                Lookups { catalog, md_names }
            });
            let loaded = self.loaded_costs(&skills, tokenizer, lookups);
            for (skill, loaded) in skills.iter_mut().zip(loaded) {
                skill.loaded = loaded;
            }
        }
        crate::sort_large_by(&mut skills, |a, b| {
            (b.index.tokens, b.index.chars)
                .cmp(&(a.index.tokens, a.index.chars))
                .then_with(|| a.name.cmp(&b.name))
                .then_with(|| a.category.cmp(&b.category))
        });
        CostReport {
            tokenizer,
            index: whole,
            frame,
            categories,
            skills,
            compact: request.index.compact.iter().cloned().collect(),
        }
    }

    /// `skill_view` and the slash command's message of each skill, measured
    /// on worker threads.
    fn loaded_costs(&self, skills: &[SkillCost], tokenizer: Tokenizer, lookups: Lookups) -> Vec<Option<Loaded>> {
        let Lookups { catalog, md_names } = lookups;
        let ctx = Context::prepared(self, &catalog).knowing_md_names(std::sync::Arc::new(md_names));
        let session = Some(self.options.session_id.as_str());
        let keys: HashMap<PathBuf, String> =
            ctx.commands().iter().map(|(key, c)| (c.skill_md_path.clone(), key.clone())).collect();
        // With inline shell on, the view and the message may preprocess
        // differently (an invalid timeout): each is then made on its own.
        let shared_content = !self.options.allow_inline_shell;
        crate::parallel_map(skills, |skill| {
            let path = skill.skill_md.as_ref()?;
            // One skill_view for both when the command loads this very folder.
            let both = keys.get(path).filter(|_| shared_content).and_then(|key| {
                let (message, content, dir) = ctx.invocation_message_and_content(key, "", session)?;
                (dir.as_deref() == path.parent()).then_some((message, content))
            });
            if let Some((message, content)) = both {
                let (view, message) = sizes_of_two(&content, &message, tokenizer);
                return Some(Loaded { view, error: None, message: Some(message) });
            }
            let view = ctx.skill_view_content(path, session);
            let content = view.get("content").and_then(Json::as_str).unwrap_or_default();
            let error = match view.get("success").and_then(Json::as_bool) {
                Some(true) => None,
                _ => Some(view.get("error").and_then(Json::as_str).unwrap_or("skill_view fails").to_owned()),
            };
            let message = keys.get(path).and_then(|key| ctx.invocation_message(key, "", session));
            Some(Loaded {
                view: Size::of(content, tokenizer),
                error,
                message: message.map(|m| Size::of(&m, tokenizer)),
            })
        })
    }
}

/// The sizes of a skill's content and of the message that quotes it
/// (stripped), the quoted part's tokens counted once.
fn sizes_of_two(content: &str, message: &str, tokenizer: Tokenizer) -> (Size, Size) {
    let quoted = crate::py::py_strip(content);
    // `quoted` is a slice of `content`.
    let in_content = quoted.as_ptr() as usize - content.as_ptr() as usize;
    let tokens = match message.find(quoted).filter(|_| !quoted.is_empty()) {
        Some(at) => tokenizer.count_two(content, in_content..in_content + quoted.len(), message, at..at + quoted.len()),
        None => (tokenizer.count(content), tokenizer.count(message)),
    };
    let size = |text: &str, tokens| Size { chars: text.chars().count(), bytes: text.len(), tokens };
    (size(content, tokens.0), size(message, tokens.1))
}

impl CostReport {
    /// `{"tokenizer", "index", "categories", "skills"}`, as `cost --json`
    /// prints it (through its [`Serialize`] impl, which makes no tree).
    pub fn to_json(&self) -> Json {
        serde_json::to_value(self).unwrap_or_default()
    }

    /// The skill whose SKILL.md is `path`.
    pub fn skill_at(&self, path: &std::path::Path) -> Option<&SkillCost> {
        self.skills.iter().find(|s| s.skill_md.as_deref() == Some(path))
    }
}

impl Serialize for CostReport {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        struct Report<'a> {
            tokenizer: &'static str,
            index: Whole,
            frame: Short,
            compact: &'a [String],
            categories: Vec<Category<'a>>,
            skills: Vec<Skill<'a>>,
        }
        #[derive(Serialize)]
        struct Whole {
            chars: usize,
            bytes: usize,
            tokens: usize,
        }
        #[derive(Serialize)]
        struct Short {
            chars: usize,
            tokens: usize,
        }
        #[derive(Serialize)]
        struct Category<'a> {
            category: &'a str,
            skills: usize,
            names_only: bool,
            chars: usize,
            tokens: usize,
        }
        #[derive(Serialize)]
        struct Skill<'a> {
            name: &'a str,
            category: &'a str,
            path: Option<String>,
            offered: bool,
            index: Short,
            #[serde(skip_serializing_if = "Option::is_none")]
            loaded: Option<LoadedJson<'a>>,
        }
        #[derive(Serialize)]
        #[serde(untagged)]
        enum LoadedJson<'a> {
            Failed { error: &'a str, message: Option<Short> },
            Measured { chars: usize, tokens: usize, message: Option<Short> },
        }
        let short = |s: &Size| Short { chars: s.chars, tokens: s.tokens };
        let report = Report {
            tokenizer: self.tokenizer.name(),
            index: Whole { chars: self.index.chars, bytes: self.index.bytes, tokens: self.index.tokens },
            frame: short(&self.frame),
            compact: &self.compact,
            categories: self
                .categories
                .iter()
                .map(|c| Category {
                    category: &c.category,
                    skills: c.skills,
                    names_only: c.demoted,
                    chars: c.size.chars,
                    tokens: c.size.tokens,
                })
                .collect(),
            skills: self
                .skills
                .iter()
                .map(|s| Skill {
                    name: &s.name,
                    category: &s.category,
                    path: s.skill_md.as_deref().map(paths::path_string),
                    offered: s.offered,
                    index: short(&s.index),
                    loaded: s.loaded.as_ref().map(|l| {
                        let message = l.message.as_ref().map(short);
                        match &l.error {
                            Some(error) => LoadedJson::Failed { error, message },
                            None => LoadedJson::Measured { chars: l.view.chars, tokens: l.view.tokens, message },
                        }
                    }),
                })
                .collect(),
        };
        report.serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_count_characters_bytes_and_tokens() {
        let size = Size::of("héllo wörld", Tokenizer::O200kBase);
        assert_eq!((size.chars, size.bytes), (11, 13));
        assert!(size.tokens >= 2 && size.tokens <= 5, "{size:?}");
    }

    #[test]
    fn special_tokens_are_counted_as_text() {
        // `<|endoftext|>` in a skill is text to the agent, not a control token.
        assert!(Tokenizer::O200kBase.count("<|endoftext|>") > 1);
    }
}
