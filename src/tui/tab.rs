//! The views of the selected skill, as tabs.

/// The views of the selected skill (and the system prompt).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ViewTab {
    Preview,
    Files,
    Readiness,
    Agent,
    Bundles,
    Prompt,
    Diagnostics,
    Lifecycle,
}

impl ViewTab {
    pub const ALL: [ViewTab; 8] = [
        ViewTab::Preview,
        ViewTab::Files,
        ViewTab::Readiness,
        ViewTab::Agent,
        ViewTab::Bundles,
        ViewTab::Prompt,
        ViewTab::Diagnostics,
        ViewTab::Lifecycle,
    ];

    pub fn title(self) -> &'static str {
        match self {
            ViewTab::Preview => "Preview",
            ViewTab::Files => "Files",
            ViewTab::Readiness => "Readiness",
            ViewTab::Agent => "Agent",
            ViewTab::Bundles => "Bundles",
            ViewTab::Prompt => "Prompt",
            ViewTab::Diagnostics => "Diagnostics",
            ViewTab::Lifecycle => "Lifecycle",
        }
    }

    pub fn index(self) -> usize {
        ViewTab::ALL.iter().position(|t| *t == self).unwrap_or(0)
    }
}
