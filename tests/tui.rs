//! The browser without a terminal: keys and actions drive the app, screens
//! are drawn on ratatui's TestBackend and compared as insta snapshots.

mod common;

use common::tui::{app_for, engine_for, key, keys, screen};

use crossterm::event::{Event, KeyCode, KeyModifiers, MouseButton, MouseEvent, MouseEventKind};
use skillscope::demo::DemoHome;
use skillscope::engine::layers::Layers;
use skillscope::tui::app::{App, Effect, Focus, ViewTab};
use skillscope::tui::theme::{ColorMode, Theme};
use skillscope::tui::tree::{NodeKey, TreeSort};
use std::path::Path;

fn select_skill(app: &mut App, name: &str) {
    let i = app
        .rows()
        .iter()
        .position(|r| app.tree().nodes[r.node].skill.is_some_and(|s| app.catalog.skills[s].name == name));
    let i = i.unwrap_or_else(|| panic!("{name} is visible"));
    let delta = i as isize - app.cursor() as isize;
    let code = if delta >= 0 { KeyCode::Down } else { KeyCode::Up };
    for _ in 0..delta.unsigned_abs() {
        key(app, code);
    }
    assert_eq!(app.selected_skill().map(|s| app.catalog.skills[s].name.clone()).as_deref(), Some(name));
}

/// The screen's top line (the tree's and the view's titles), at 120 × 40.
fn top_line(app: &mut App) -> String {
    screen(app, 120, 40).lines().next().unwrap_or_default().to_owned()
}

/// Replaces machine-specific paths so snapshots hold everywhere.
macro_rules! snapshot {
    ($name:expr, $value:expr) => {
        insta::with_settings!({filters => vec![
            (r"skillscope-demo-[A-Za-z0-9]{6}", "skillscope-demo-XXXXXX"),
            (r"\.tmp[A-Za-z0-9]{6}", ".tmpXXXXXX"),
            // skill_view's content holds the random path: its tokens vary.
            (r"loading it( +)[0-9,]+ tokens", "loading it${1}NNN tokens"),
        ]}, {
            insta::assert_snapshot!($name, $value);
        });
    };
}

#[test]
fn navigation_and_folding() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    let first = app.cursor();
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(app.cursor(), first + 1);
    key(&mut app, KeyCode::Up);
    assert_eq!(app.cursor(), first);
    key(&mut app, KeyCode::Char('G'));
    assert_eq!(app.cursor(), app.rows().len() - 1);
    key(&mut app, KeyCode::Char('g'));
    assert_eq!(app.cursor(), 0);
    // The first row is the local root: collapse hides everything under it.
    let rows = app.rows().len();
    key(&mut app, KeyCode::Char('h'));
    assert!(app.rows().len() < rows);
    key(&mut app, KeyCode::Char('l'));
    assert_eq!(app.rows().len(), rows);
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::View);
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.focus, Focus::Tree);
}

#[test]
fn search_filters_live_and_esc_clears() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    key(&mut app, KeyCode::Char('/'));
    keys(&mut app, "release-n");
    let matches = app.search.matches.clone().expect("filtering");
    assert_eq!(matches.len(), 1);
    assert_eq!(app.selected_skill().map(|s| app.catalog.skills[s].name.as_str()), Some("release-notes"));
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("/release-n") && s.contains("1 matching"), "{s}");
    assert!(s.contains("Skills 1/9 by relevance"), "{s}");
    key(&mut app, KeyCode::Backspace);
    assert_eq!(app.search.query(), "release-");
    key(&mut app, KeyCode::Enter);
    assert!(!app.search.typing && app.search.matches.is_some(), "Enter keeps the filter");
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Esc);
    assert!(app.search.matches.is_none(), "Esc clears the filter");
    assert_eq!(app.selected_skill().map(|s| app.catalog.skills[s].name.as_str()), Some("release-notes"));
    // n after a search nothing matches: the search line says so, alone.
    key(&mut app, KeyCode::Char('/'));
    keys(&mut app, "zzz");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('n'));
    let s = screen(&mut app, 100, 30);
    assert!(s.contains("no skill matches") && !s.contains("No search"), "{s}");
}

#[test]
fn backend_switch_changes_the_preview_and_agent_view() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "release-notes");
    select_skill(&mut app, "s3-sync");
    let tree_skill = |app: &App, n: &str| app.catalog.skills.iter().position(|s| s.name == n);
    assert!(tree_skill(&app, "deploy-service").is_some());
    // The local deploy-service is the first row of that name.
    let i = app
        .rows()
        .iter()
        .position(|r| app.tree().nodes[r.node].skill.is_some_and(|s| app.catalog.skills[s].name == "deploy-service"))
        .expect("row");
    while app.cursor() < i {
        key(&mut app, KeyCode::Down);
    }
    let local = screen(&mut app, 120, 40);
    let host = demo.home().join("skills/devops/deploy-service").display().to_string();
    assert!(local.contains(&format!("bash {}", &host[..20])), "{local}");
    key(&mut app, KeyCode::Char('b'));
    assert_eq!(app.engine.options.backend.name(), "docker");
    let docker = screen(&mut app, 120, 40);
    assert!(docker.contains("bash /root/.hermes/skills/devops/deploy-service/scripts/deploy.sh"), "{docker}");
    key(&mut app, KeyCode::Char('4'));
    assert_eq!(app.view(), ViewTab::Agent);
    let agent = screen(&mut app, 120, 40);
    assert!(agent.contains("On docker, what the agent receives"), "{agent}");
    key(&mut app, KeyCode::Char('B'));
    assert_eq!(app.engine.options.backend.name(), "local");
}

#[test]
fn editor_targets() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "release-notes");
    let effects = key(&mut app, KeyCode::Char('e'));
    let skill = &app.catalog.skills[app.selected_skill().expect("skill")];
    assert_eq!(effects, [Effect::OpenEditor { path: skill.skill_md.clone(), line: skill.body_line }]);
    assert!(skill.body_line > 1, "opens below the frontmatter");
    // The raw SKILL.md opens at the line on top of the view.
    let path = skill.skill_md.clone();
    key(&mut app, KeyCode::Char('R'));
    key(&mut app, KeyCode::Tab);
    screen(&mut app, 120, 10);
    key(&mut app, KeyCode::Char('j'));
    key(&mut app, KeyCode::Char('j'));
    assert_eq!(key(&mut app, KeyCode::Char('e')), [Effect::OpenEditor { path, line: 3 }]);
    key(&mut app, KeyCode::Char('R'));
    key(&mut app, KeyCode::Esc);
    select_skill(&mut app, "s3-sync");
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Tab);
    // s3-sync has no files: the SKILL.md opens.
    let effects = key(&mut app, KeyCode::Char('e'));
    assert!(matches!(&effects[0], Effect::OpenEditor { path, .. } if path.ends_with("SKILL.md")));
}

#[test]
fn files_view_moves_and_names_binaries() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "deploy-service");
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Tab);
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("references/runbook.md") && s.contains("scripts/deploy.sh"), "{s}");
    // Walk to the PNG: its content is never dumped.
    let entries = skillscope::tui::view_jobs::file_entries(&app.catalog.skills[app.selected_skill().expect("skill")]);
    let png = entries.iter().position(|e| e.rel.ends_with("logo.png")).expect("png");
    for _ in 0..png {
        key(&mut app, KeyCode::Char('j'));
    }
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("logo.png: binary,"), "{s}");
    let effects = key(&mut app, KeyCode::Char('e'));
    assert!(matches!(&effects[0], Effect::OpenEditor { path, line: 1 } if path.ends_with("assets/logo.png")));
    // Enter on a file says which keys act on it.
    key(&mut app, KeyCode::Enter);
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("e opens this file in your editor"), "{s}");
}

#[test]
fn rescan_keeps_the_selection() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    for name in ["alpha", "beta", "gamma"] {
        let dir = home.join("skills").join(name);
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("SKILL.md"), format!("---\nname: {name}\ndescription: {name} v1\n---\nbody\n"))
            .expect("write");
    }
    let mut app = app_for(&home);
    select_skill(&mut app, "beta");
    std::fs::write(home.join("skills/alpha2/SKILL.md").with_file_name("x"), "").ok();
    std::fs::create_dir_all(home.join("skills/aaa")).expect("mkdir");
    std::fs::write(home.join("skills/aaa/SKILL.md"), "---\nname: aaa\ndescription: new\n---\n").expect("write");
    std::fs::write(home.join("skills/beta/SKILL.md"), "---\nname: beta\ndescription: beta v2\n---\nbody\n")
        .expect("write");
    app.rescan(engine_for(&home));
    let s = app.selected_skill().map(|i| app.catalog.skills[i].clone()).expect("selected");
    assert_eq!((s.name.as_str(), s.description.as_str()), ("beta", "beta v2"));
}

#[test]
fn mouse_selects_and_scrolls() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    screen(&mut app, 120, 40);
    let tree = app.layout().tree;
    let click = MouseEvent {
        kind: MouseEventKind::Down(MouseButton::Left),
        column: tree.x + 3,
        row: tree.y + 1 + 2,
        modifiers: KeyModifiers::NONE,
    };
    app.handle_event(&Event::Mouse(click));
    assert_eq!(app.cursor(), 2);
    let view = app.layout().view;
    let wheel = MouseEvent {
        kind: MouseEventKind::ScrollDown,
        column: view.x + 5,
        row: view.y + 5,
        modifiers: KeyModifiers::NONE,
    };
    select_skill(&mut app, "deploy-service");
    screen(&mut app, 120, 20);
    app.handle_event(&Event::Mouse(wheel));
    assert_eq!(app.view_scroll(), 3);
    // Over the tree the wheel moves the selection, three rows a notch.
    let cursor = app.cursor();
    app.handle_event(&Event::Mouse(MouseEvent { column: tree.x + 3, row: tree.y + 2, ..wheel }));
    assert_eq!(app.cursor(), cursor + 3);
}

#[test]
fn help_lists_every_binding() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    key(&mut app, KeyCode::Char('?'));
    let s = screen(&mut app, 120, 120);
    for b in skillscope::tui::keymap::BINDINGS {
        assert!(s.contains(b.desc), "help shows {:?}:\n{s}", b.desc);
    }
    key(&mut app, KeyCode::Esc);
    assert!(!app.help.open);
    let effects = key(&mut app, KeyCode::Char('q'));
    assert_eq!(effects, [Effect::Quit]);
}

#[test]
fn any_size_draws_without_panicking() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "deploy-service");
    for tab in ['1', '2', '3', '4', '5', '6', '7'] {
        key(&mut app, KeyCode::Char(tab));
        for (w, h) in [(20, 5), (21, 6), (40, 10), (59, 12), (60, 12), (80, 24), (200, 60), (1, 1), (3, 2)] {
            screen(&mut app, w, h);
        }
    }
    key(&mut app, KeyCode::Char('?'));
    screen(&mut app, 20, 5);
}

#[test]
fn escape_sequences_never_reach_the_screen() {
    let s = common::Scenario::fixture("bad_files");
    let mut app = app_for(&s.home);
    for _ in 0..app.rows().len() {
        for tab in ['1', '2', '3', '4', '7'] {
            key(&mut app, KeyCode::Char(tab));
            let text = screen(&mut app, 100, 30);
            assert!(!text.lines().any(|l| l.chars().any(char::is_control)), "{text:?}");
            assert!(!text.contains('\u{1b}'));
        }
        key(&mut app, KeyCode::Down);
    }
}

/// The skills in the order the tree shows them below a folder.
fn skills_under(app: &App, folder: &str) -> Vec<String> {
    let at = app.rows().iter().position(|r| app.tree().nodes[r.node].label == folder).expect("the folder has a row");
    let node = &app.tree().nodes[app.rows()[at].node];
    node.children
        .iter()
        .filter_map(|&c| app.tree().nodes[c].skill)
        .map(|s| app.catalog.skills[s].name.clone())
        .collect()
}

/// `s` orders each folder's skills by last activity, then by use count,
/// then by name again, keeping the selection; the title and each row say
/// by what.
#[test]
fn s_sorts_skills_by_last_activity_then_use_count() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "release-notes");
    assert_eq!(skills_under(&app, "writing"), ["legacy-notes", "release-notes"]);
    key(&mut app, KeyCode::Char('s'));
    assert_eq!(app.tree_sort(), TreeSort::LastActivity);
    // release-notes was used on 20 November, legacy-notes in August.
    assert_eq!(skills_under(&app, "writing"), ["release-notes", "legacy-notes"]);
    assert_eq!(app.selected_skill().map(|s| app.catalog.skills[s].name.as_str()), Some("release-notes"));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("Skills 9 by last activity"), "{text}");
    assert!(text.contains("release-notes  20 days ago"), "{text}");
    assert!(text.contains("s3-sync  never"), "{text}");
    // On a narrow tree each row keeps what the order is by, short.
    let narrow = screen(&mut app, 80, 24);
    let row = narrow.lines().find(|l| l.contains("≈ deploy-")).unwrap_or_else(|| panic!("{narrow}"));
    let tree_part: String = row.chars().skip(1).take_while(|c| *c != '│').collect();
    let last = tree_part.split_whitespace().last().unwrap_or_default();
    assert!(last.ends_with('d') && last[..last.len() - 1].parse::<u32>().is_ok(), "{row}");
    key(&mut app, KeyCode::Char('s'));
    assert_eq!(app.tree_sort(), TreeSort::UseCount);
    // legacy-notes has 9 uses, release-notes 6.
    assert_eq!(skills_under(&app, "writing"), ["legacy-notes", "release-notes"]);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("legacy-notes  9 uses"), "{text}");
    assert!(text.contains("by use count"), "{text}");
    key(&mut app, KeyCode::Char('s'));
    assert_eq!(app.tree_sort(), TreeSort::IndexCost);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("by index cost"), "{text}");
    assert!(text.contains(" tokens"), "{text}");
    key(&mut app, KeyCode::Char('s'));
    assert_eq!(app.tree_sort(), TreeSort::Name);
    assert!(!screen(&mut app, 120, 40).contains(" uses"));
}

/// The archive is a last root of its own, dimmed: each archived skill shows
/// when it was archived, how to restore it, and its SKILL.md; `e` opens it
/// and `y` copies its path.
#[test]
fn the_archive_is_its_own_root() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    let archive = app.rows().iter().position(|r| app.tree().nodes[r.node].key == NodeKey::Archive).expect("a root");
    let top: Vec<usize> = app.tree().top.clone();
    assert_eq!(top.last().copied(), Some(app.rows()[archive].node), "the archive comes last");
    key(&mut app, KeyCode::Char('G'));
    key(&mut app, KeyCode::Up);
    assert_eq!(app.cursor(), archive);
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("1 skill in the archive: the agent receives none."), "{text}");
    assert!(text.contains("⊟ old-draft — archived 2026-06-10 (183 days ago); hermes curator restore"), "{text}");
    key(&mut app, KeyCode::Char('G'));
    let node = &app.tree().nodes[app.rows()[app.cursor()].node];
    assert_eq!(node.label, "old-draft");
    assert!(app.selected_skill().is_none(), "an archived skill is not in the catalog");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("⊟ old-draft"), "{text}");
    assert!(text.contains("Archived by the curator: the agent does not receive it."), "{text}");
    assert!(text.contains("2026-06-10 (183 days ago)"), "{text}");
    assert!(text.contains("hermes curator restore old-draft"), "{text}");
    snapshot!("demo_archived", text);
    let effects = key(&mut app, KeyCode::Char('e'));
    let opened = effects
        .iter()
        .any(|e| matches!(e, Effect::OpenEditor { path, .. } if path.ends_with("skills/.archive/old-draft/SKILL.md")));
    assert!(opened, "{effects:?}");
    let effects = key(&mut app, KeyCode::Char('y'));
    assert!(effects.iter().any(|e| matches!(e, Effect::Copy { text, .. } if text.ends_with("old-draft/SKILL.md"))));
}

/// Hermes records a use while the browser is open: the Lifecycle view, the
/// markers and the sort follow without a rescan.
#[test]
fn the_lifecycle_view_follows_hermes_usage_writes() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "release-notes");
    key(&mut app, KeyCode::Char('8'));
    key(&mut app, KeyCode::Char('s'));
    let before = screen(&mut app, 120, 40);
    assert!(before.contains("used          6"), "{before}");
    let usage = demo.home().join("skills/.usage.json");
    let text = std::fs::read_to_string(&usage).expect("usage");
    let text = text.replace(
        r#""release-notes": {"created_by": "agent", "use_count": 6,"#,
        r#""release-notes": {"created_by": "agent", "use_count": 7, "pinned": true,"#,
    );
    std::fs::write(&usage, text).expect("write");
    let pending = skillscope::engine::reload::Pending { paths: [usage].into_iter().collect(), overflow: false };
    assert!(app.reload(&pending));
    let effects = app.wanted_jobs();
    app.run_jobs_inline(&effects);
    let after = screen(&mut app, 120, 40);
    assert!(after.contains("used          7"), "{after}");
    assert!(after.contains("release-notes ⚑"), "{after}");
    assert_eq!(app.selected_skill().map(|s| app.catalog.skills[s].name.as_str()), Some("release-notes"));
}

#[test]
fn snapshots_of_each_view_on_the_demo_home() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    app.banner = Some(skillscope::demo::BANNER.to_owned());
    select_skill(&mut app, "deploy-service");
    snapshot!("demo_preview", screen(&mut app, 120, 40));
    for (tab, name) in [
        ('2', "demo_files"),
        ('3', "demo_readiness"),
        ('4', "demo_agent"),
        ('5', "demo_bundles"),
        ('6', "demo_prompt"),
        ('7', "demo_diagnostics"),
        ('8', "demo_lifecycle"),
    ] {
        key(&mut app, KeyCode::Char(tab));
        snapshot!(name, screen(&mut app, 120, 40));
    }
    key(&mut app, KeyCode::Char('1'));
    key(&mut app, KeyCode::Char('b'));
    snapshot!("demo_preview_docker", screen(&mut app, 80, 24));
    key(&mut app, KeyCode::Char('?'));
    snapshot!("demo_help", screen(&mut app, 100, 50));
}

#[test]
fn snapshots_on_the_hermes_corpus() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    std::fs::create_dir_all(&home).expect("mkdir");
    let src = common::corpus().join("hermes/skills");
    copy(&src, &home.join("skills"));
    let mut app = app_for(&home);
    snapshot!("corpus_tree", screen(&mut app, 120, 40));
    key(&mut app, KeyCode::Char('/'));
    keys(&mut app, "github");
    key(&mut app, KeyCode::Enter);
    snapshot!("corpus_search", screen(&mut app, 120, 40));
    key(&mut app, KeyCode::Char('3'));
    snapshot!("corpus_readiness", screen(&mut app, 120, 40));
}

fn copy(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for e in std::fs::read_dir(from).expect("read").flatten() {
        let target = to.join(e.file_name());
        if e.file_type().expect("type").is_dir() {
            copy(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).expect("copy");
        }
    }
}

fn layered_demo(demo: &DemoHome, org_id: Option<&str>) -> App {
    let layers = Layers { user: "demo".into(), db: Some(demo.db().into()), org_id: org_id.map(str::to_owned) };
    App::with_layers(engine_for(&demo.home()), Theme::new(ColorMode::NoColor), Some(layers))
}

/// Selects the skill `name` under the tree root whose label starts with `root`.
fn select_in_root(app: &mut App, root: &str, name: &str) {
    let target = app
        .catalog
        .skills
        .iter()
        .enumerate()
        .position(|(_, s)| s.name == name && app.catalog.roots[s.root].label.starts_with(root));
    let target = target.unwrap_or_else(|| panic!("{name} under {root}"));
    let row = app.rows().iter().position(|r| app.tree().nodes[r.node].skill == Some(target)).expect("visible");
    let delta = row as isize - app.cursor() as isize;
    let code = if delta >= 0 { KeyCode::Down } else { KeyCode::Up };
    for _ in 0..delta.unsigned_abs() {
        key(app, code);
    }
    assert_eq!(app.selected_skill(), Some(target));
}

#[test]
fn layered_demo_shows_sources_and_shadowing() {
    let demo = DemoHome::create().expect("demo");
    let mut app = layered_demo(&demo, None);
    snapshot!("layered_demo", screen(&mut app, 110, 34));
    select_in_root(&mut app, "db", "meeting-notes");
    let shown = screen(&mut app, 110, 34);
    assert!(shown.contains("row 1 of hermes_skills"), "{shown}");
    assert!(shown.contains("This skill lives in the database"), "{shown}");
    key(&mut app, KeyCode::Char('2'));
    assert!(screen(&mut app, 110, 34).contains("A database skill has no folder"));
    key(&mut app, KeyCode::Char('3'));
    assert!(screen(&mut app, 110, 34).contains("none (stored in the database)"));
    key(&mut app, KeyCode::Char('1'));
    select_in_root(&mut app, "shared local", "release-notes");
    let shown = screen(&mut app, 110, 34);
    assert!(shown.contains("not in skills_list"), "the shadowed skill is reachable: {shown}");
    // The System prompt view says whose index it shows.
    key(&mut app, KeyCode::Char('6'));
    let shown = screen(&mut app, 110, 34);
    assert!(shown.contains("The index of the home's own skill dirs; demo's skills are"), "{shown}");
}

#[test]
fn layered_edit_permissions() {
    let demo = DemoHome::create().expect("demo");
    let mut app = layered_demo(&demo, None);
    select_in_root(&mut app, "shared local", "paper-summary");
    assert!(key(&mut app, KeyCode::Char('e')).is_empty(), "shared skills are refused");
    assert!(app.notice.as_deref().is_some_and(|n| n.contains("org_id 0")), "{:?}", app.notice);
    select_in_root(&mut app, "user", "standup");
    assert!(matches!(&key(&mut app, KeyCode::Char('e'))[..], [Effect::OpenEditor { .. }]));
    select_in_root(&mut app, "db", "meeting-notes");
    let effects = key(&mut app, KeyCode::Char('e'));
    assert!(
        matches!(&effects[..], [Effect::EditDbSkill { row, db, line }] if *line > 1 && row.name == "meeting-notes" && *db == demo.db().into())
    );

    let mut owner = layered_demo(&demo, Some("0"));
    select_in_root(&mut owner, "shared local", "paper-summary");
    assert!(matches!(&key(&mut owner, KeyCode::Char('e'))[..], [Effect::OpenEditor { .. }]));
}

#[test]
fn layered_agent_view_answers_from_the_skill_layer() {
    let demo = DemoHome::create().expect("demo");
    let mut app = layered_demo(&demo, None);
    select_in_root(&mut app, "user", "release-notes");
    key(&mut app, KeyCode::Char('4'));
    let shown = screen(&mut app, 110, 60);
    assert!(shown.contains("Release notes (personal)"), "{shown}");
    select_in_root(&mut app, "shared local", "release-notes");
    let shown = screen(&mut app, 110, 60);
    assert!(shown.contains("Collect merged pull requests") && !shown.contains("(personal)"), "{shown}");
}

#[test]
fn problems_are_counted_in_the_status_and_listed_in_the_folder_view() {
    let demo = DemoHome::create().expect("demo");
    std::fs::write(demo.home().join("skill-bundles/broken.yaml"), "name: [unclosed\n").expect("write");
    let layers = Layers { user: "demo".into(), db: Some(demo.home().join("missing.db").into()), org_id: None };
    let mut app = App::with_layers(engine_for(&demo.home()), Theme::new(ColorMode::NoColor), Some(layers));
    assert_eq!(app.catalog.problems.len(), 2, "{:?}", app.catalog.problems);
    key(&mut app, KeyCode::Char('g'));
    let shown = screen(&mut app, 140, 30);
    assert!(shown.contains("2 problems, all listed when a folder is selected"), "{shown}");
    assert!(shown.contains("Problems reading the home"), "{shown}");
    assert!(shown.contains("broken.yaml") && shown.contains("missing.db: no such"), "{shown}");
}

/// A big home's first scan runs while the screen says how far it got; keys
/// still work, and the tree comes with the catalog, search included.
#[test]
fn the_first_scan_of_a_big_home_shows_its_progress() {
    use skillscope::tui::app::{load_catalog, ScanProgress};
    use skillscope::tui::theme::{ColorMode, Theme};
    let engine = common::tui::engine_for(&common::repo().join("tests/fixtures/basic/home"));
    let mut app = App::scanning(engine.clone(), Theme::new(ColorMode::NoColor), None, ScanProgress::start());
    let waiting = screen(&mut app, 100, 12);
    assert!(waiting.contains("Reading skills…") && waiting.contains("reading…"), "{waiting}");
    assert!(app.wanted_jobs().is_empty(), "no job competes with the first scan");
    assert!(!app.reload(&Default::default()));
    keys(&mut app, "/");
    keys(&mut app, "deploy");
    let catalog = load_catalog(&engine, None, &Default::default());
    assert!(catalog.skills.len() > 1);
    app.scanned(catalog);
    assert!(!app.wanted_jobs().is_empty(), "the jobs follow the scan");
    let shown = screen(&mut app, 100, 12);
    assert!(!shown.contains("Reading skills…"), "{shown}");
    assert!(app.search.matches.as_ref().is_some_and(|m| !m.is_empty()), "the query typed meanwhile applies");
}

/// When the system's watch limit is reached the status line says so (and
/// the browser goes on: the folders left over are polled by the watcher).
#[test]
fn the_watch_limit_is_said_in_the_status_line() {
    let mut app = common::tui::app_for(&common::repo().join("tests/fixtures/basic/home"));
    app.watch_note =
        Some("the system's file-watch limit is reached (8192 folders watched); 40 more are checked every 2 s".into());
    // Too long to share the status line with the hints: a row of its own above it.
    let shown = screen(&mut app, 160, 12);
    let mut bottom = shown.lines().rev();
    let (status, above) = (bottom.next().unwrap_or_default(), bottom.next().unwrap_or_default());
    assert!(above.contains("file-watch limit is reached") && status.contains("? help"), "{shown}");
    keys(&mut app, "j");
    assert!(
        screen(&mut app, 160, 12).lines().rev().nth(1).unwrap_or_default().contains("file-watch limit"),
        "it stays"
    );
    // On a screen too short for that row, it shares the line.
    let short = screen(&mut app, 160, 10);
    assert!(short.lines().last().unwrap_or_default().contains("file-watch limit"), "{short}");
}

/// A notice longer than the line wraps onto up to three rows, so its end
/// (often what to do) is read.
#[test]
fn a_long_notice_wraps_above_the_status_line() {
    let mut app = common::tui::app_for(&common::repo().join("tests/fixtures/basic/home"));
    let notice = "editor: cannot run `ed.sh`: No such file or directory; set editor = \"ed.sh +{line} {file}\" in ~/.config/skillscope/config.toml";
    app.notice = Some(notice.into());
    let shown = screen(&mut app, 80, 24);
    let rows: Vec<&str> = shown.lines().rev().take(3).collect();
    let text: String = rows.iter().rev().map(|r| r.trim()).collect::<Vec<_>>().join(" ");
    assert!(text.contains("in ~/.config/skillscope/config.toml"), "{shown}");
}

/// Draws one frame without running the jobs it asks for.
fn draw_only(app: &mut App, w: u16, h: u16) -> String {
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(w, h)).expect("terminal");
    skillscope::tui::ui::render(&mut terminal, app).expect("draw");
    let buffer = terminal.backend().buffer();
    (0..h)
        .map(|y| (0..w).map(|x| buffer[(x, y)].symbol().to_owned()).collect::<String>().trim_end().to_owned())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The System prompt view's summary wraps on a narrow screen: the way to
/// switch postures (`c`) is not cut.
#[test]
fn the_prompt_summary_wraps_at_80_columns() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    key(&mut app, KeyCode::Char('6'));
    let s = screen(&mut app, 80, 24);
    assert!(!s.lines().take(8).any(|l| l.contains('›')), "{s}");
    let lines: Vec<&str> = s.lines().collect();
    let at = lines.iter().position(|l| l.contains("in the focus posture:")).unwrap_or_else(|| panic!("{s}"));
    let both = format!("{} {}", lines[at], lines[at + 1]);
    assert!(both.contains("; c") && both.contains("switches"), "{s}");
}

/// A symlink to a folder holding it is named as such in the Files view;
/// one to another folder is not.
#[test]
fn the_files_view_names_a_link_to_a_folder_holding_it() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    let dir = home.join("skills/c/loopy");
    std::fs::create_dir_all(dir.join("assets/sub")).expect("mkdir");
    std::fs::create_dir_all(home.join("elsewhere")).expect("mkdir");
    std::fs::write(dir.join("SKILL.md"), "---\nname: loopy\ndescription: d\n---\nbody\n").expect("write");
    std::os::unix::fs::symlink("../..", dir.join("assets/sub/up")).expect("link");
    std::os::unix::fs::symlink(home.join("elsewhere"), dir.join("assets/away")).expect("link");
    let mut app = app_for(&home);
    select_skill(&mut app, "loopy");
    key(&mut app, KeyCode::Char('2'));
    let s = screen(&mut app, 160, 40);
    let row = |name: &str| s.lines().find(|l| l.contains(name)).unwrap_or_else(|| panic!("{name}:\n{s}")).to_owned();
    assert!(row("assets/sub/up").contains("symlink to a folder holding it"), "{s}");
    assert!(row("assets/away").contains("symlink to a folder, read on the host"), "{s}");
}

/// A banner longer than the screen is wide takes a second row, not cut.
#[test]
fn a_long_banner_wraps_onto_a_second_row() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    let text = "/home/author/src/team-skills/plugins is a folder of skills, not a Hermes home: shown as Hermes sees it in skills.external_dirs of an otherwise empty home";
    app.banner = Some(text.to_owned());
    let s = screen(&mut app, 80, 24);
    let top: Vec<&str> = s.lines().take(2).map(str::trim_end).collect();
    assert_eq!(top.join(" "), text, "{s}");
    assert!(s.lines().nth(2).is_some_and(|l| l.starts_with('┌')), "the panes below:\n{s}");
}

/// A Preview asked for before the index's cost arrived, answering after
/// it, is not kept: its card would say `measuring…` for good.
#[test]
fn a_preview_made_before_the_index_cost_arrived_is_made_again() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    let area = ratatui::layout::Rect::new(0, 0, 120, 40);
    let mut asked = app.wanted_jobs();
    asked.extend(app.prepare(area));
    let is_prompt = |e: &Effect| {
        matches!(
            e,
            Effect::Job(skillscope::tui::jobs::JobRequest { kind: skillscope::tui::jobs::JobKind::Prompt { .. }, .. })
        )
    };
    let is_view = |e: &Effect| {
        matches!(
            e,
            Effect::Job(skillscope::tui::jobs::JobRequest { kind: skillscope::tui::jobs::JobKind::View(_), .. })
        )
    };
    let (prompt, rest): (Vec<Effect>, Vec<Effect>) = asked.into_iter().partition(is_prompt);
    assert!(!prompt.is_empty() && rest.iter().any(is_view), "the frame asks for the index's cost and the Preview");
    app.run_jobs_inline(&prompt);
    app.run_jobs_inline(&rest);
    let s = screen(&mut app, 120, 40);
    let card = s.lines().find(|l| l.contains("│ index line")).unwrap_or_else(|| panic!("{s}"));
    assert!(!card.contains("measuring…") && card.contains("tokens"), "{s}");
}

/// Why a SKILL.md cannot be read is wrapped in a narrow view, not cut.
#[test]
fn an_unreadable_skill_md_s_reason_is_wrapped() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    let dir = home.join("skills/c/latin1");
    std::fs::create_dir_all(&dir).expect("mkdir");
    std::fs::write(dir.join("SKILL.md"), b"---\nname: latin1\ndescription: caf\xc1\n---\nbody\n").expect("write");
    let mut app = app_for(&home);
    select_skill(&mut app, "latin1");
    let reason = app.catalog.skills[app.selected_skill().expect("skill")].read_error.clone().expect("unreadable");
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("This SKILL.md cannot be read"), "{s}");
    assert!(!s.lines().any(|l| l.contains('›')), "nothing cut:\n{s}");
    let words: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    for word in reason.split_whitespace().filter(|w| w.len() < 20) {
        assert!(words.contains(word), "{word:?} of {reason:?} on screen:\n{s}");
    }
}

/// The Agent view shows a skill's message only once its own job answers:
/// meanwhile, not the message of the skill selected before.
#[test]
fn the_agent_view_never_shows_the_skill_selected_before() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "paper-summary");
    key(&mut app, KeyCode::Char('4'));
    let before = screen(&mut app, 120, 40);
    assert!(before.contains("for /paper-summary") && before.contains("\"paper-summary\""), "{before}");
    // Moved to another skill, its job not run yet.
    let up = crossterm::event::Event::Key(crossterm::event::KeyEvent::from(KeyCode::Up));
    let mut asked = Vec::new();
    while app.selected_skill().is_none_or(|i| app.catalog.skills[i].name != "s3-sync") {
        asked.extend(app.handle_event(&up));
    }
    let between = draw_only(&mut app, 120, 40);
    assert!(!between.contains("\"paper-summary\""), "the last skill's message:\n{between}");
    assert!(between.contains("computing…"), "{between}");
    app.run_jobs_inline(&asked);
    let after = screen(&mut app, 120, 40);
    assert!(after.contains("for /s3-sync") && after.contains("\"s3-sync\""), "{after}");
}

#[test]
fn view_search_follows_the_text_when_it_is_rebuilt_or_arrives() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "deploy-service");
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char('/'));
    keys(&mut app, "scripts/check.py");
    key(&mut app, KeyCode::Enter);
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("match 1/"), "{s}");
    // A new backend rebuilds the text: the search follows it.
    key(&mut app, KeyCode::Char('b'));
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("/root/.hermes/skills/devops/deploy-service/scripts/check.py"), "{s}");
    assert!(s.contains("match 1/") && !s.contains("no match"), "{s}");
    // The Agent view's text comes from a job, after a first frame without it.
    let effects = app.handle_event(&Event::Key(KeyCode::Char('4').into()));
    let pending = draw_only(&mut app, 120, 40);
    assert!(pending.contains("computing") && pending.contains("no match in this view"), "{pending}");
    app.run_jobs_inline(&effects);
    let arrived = draw_only(&mut app, 120, 40);
    assert!(arrived.contains("match 1/") && !arrived.contains("no match"), "{arrived}");
    let before = app.view_search.current;
    app.notice = None;
    key(&mut app, KeyCode::Char('n'));
    assert!(app.notice.is_none(), "n finds the hits: {:?}", app.notice);
    assert_ne!(app.view_search.current, before, "n moved to the next hit");
    // The same text again (a redraw after a new render of it) keeps the current hit.
    let current = app.view_search.current;
    app.forget_rendered();
    draw_only(&mut app, 120, 40);
    assert_eq!(app.view_search.current, current, "the current hit is kept where it still is");
}

#[test]
fn a_new_slash_starts_an_empty_query() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    key(&mut app, KeyCode::Char('/'));
    keys(&mut app, "release");
    key(&mut app, KeyCode::Enter);
    assert!(app.search.matches.is_some(), "Enter keeps the results");
    key(&mut app, KeyCode::Char('/'));
    assert_eq!(app.search.query(), "", "a new / starts an empty prompt");
    assert_eq!(app.selected_skill().map(|s| app.catalog.skills[s].name.as_str()), Some("release-notes"));
    keys(&mut app, "deploy");
    assert_eq!(app.search.query(), "deploy");
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('/'));
    key(&mut app, KeyCode::Up);
    assert_eq!(app.search.query(), "release", "the kept query is in the history");
    key(&mut app, KeyCode::Esc);
    // The view's search too.
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char('/'));
    keys(&mut app, "deploy");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('/'));
    assert_eq!(app.view_search.input.text(), "");
}

#[test]
fn a_chain_of_single_folders_is_one_row() {
    let home = tempfile::tempdir().expect("tmp");
    let skill = |rel: &str, name: &str| {
        let dir = home.path().join("skills").join(rel);
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("SKILL.md"), format!("---\nname: {name}\ndescription: d\n---\nbody\n")).expect("write");
    };
    skill("plugins/c-review/skills/c-review", "c-review");
    skill("plugins/c-review/skills/c-review-worker", "c-review-worker");
    skill("plugins/lint/skills/lint", "lint");
    skill("tools/fmt", "fmt");
    let mut app = app_for(home.path());
    let labels: Vec<String> =
        app.rows().iter().map(|r| format!("{}{}", "  ".repeat(r.depth), app.tree().nodes[r.node].label)).collect();
    assert_eq!(
        labels,
        [
            "plugins",
            "  c-review/skills",
            "    c-review",
            "    c-review-worker",
            "  lint/skills",
            "    lint",
            "tools",
            "  fmt",
        ]
    );
    // A chained row folds and unfolds as one folder.
    let i = labels.iter().position(|l| l.trim() == "c-review/skills").expect("row");
    key(&mut app, KeyCode::Char('g'));
    for _ in 0..i {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Char('h'));
    assert_eq!(app.rows().len(), labels.len() - 2);
    let s = screen(&mut app, 80, 20);
    assert!(s.contains("▸ c-review/skills (2)"), "{s}");
}

#[test]
fn the_status_position_follows_the_view_when_its_text_arrives() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "deploy-service");
    key(&mut app, KeyCode::Tab);
    let effects = app.handle_event(&Event::Key(KeyCode::Char('7').into()));
    let pending = draw_only(&mut app, 120, 40);
    let status = |s: &str| s.lines().last().unwrap_or_default().to_owned();
    let before = status(&pending);
    app.run_jobs_inline(&effects);
    let arrived = draw_only(&mut app, 120, 40);
    let lines = app.layout().view_lines;
    assert!(status(&arrived).contains(&format!("line 1/{lines} ")), "{before} then {}", status(&arrived));
}

#[test]
fn the_bundles_view_says_why_each_member_is_skipped() {
    let home = tempfile::tempdir().expect("tmp");
    let write = |rel: &str, text: &str| {
        let path = home.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    let skill = |name: &str| format!("---\nname: {name}\ndescription: d\n---\nbody\n");
    write("skills/fuzz/libafl/SKILL.md", &skill("libafl"));
    write("skills/fuzz/aflpp/SKILL.md", &skill("aflpp"));
    write("skills/a/twin/SKILL.md", &skill("twin"));
    write("skills/b/twin/SKILL.md", &skill("twin"));
    write("skills/mac/only/SKILL.md", "---\nname: only\ndescription: d\nplatforms: [macos]\n---\nbody\n");
    write("config.yaml", "skills:\n  disabled: [libafl]\n");
    write("skill-bundles/fuzz.yaml", "name: fuzz\ndescription: d\nskills: [aflpp, libafl, twin, only, gone]\n");
    let mut app = app_for(home.path());
    key(&mut app, KeyCode::Char('5'));
    let s = screen(&mut app, 120, 30);
    let row = |name: &str| s.lines().find(|l| l.contains(&format!(" {name}   "))).unwrap_or_default().to_owned();
    assert!(row("aflpp").contains("loaded"), "{s}");
    assert!(row("libafl").contains("disabled (skipped)") && !row("libafl").contains("missing"), "{s}");
    assert!(row("twin").contains("2 skills have this name"), "{s}");
    assert!(row("only").contains("another platform"), "{s}");
    assert!(row("gone").contains("no skill has this name"), "{s}");
}

#[test]
fn readiness_and_files_say_what_platforms_and_symlinks_do() {
    let home = tempfile::tempdir().expect("tmp");
    let dir = home.path().join("skills/tools/odd");
    std::fs::create_dir_all(dir.join("references")).expect("mkdir");
    std::fs::write(dir.join("SKILL.md"), "---\nname: odd\ndescription: d\nplatforms: [mac]\n---\nbody\n").expect("w");
    std::fs::write(home.path().join("shared.md"), "shared text\n").expect("w");
    let refs = dir.join("references");
    std::os::unix::fs::symlink(home.path().join("shared.md"), refs.join("shared.md")).expect("link");
    std::os::unix::fs::symlink("/nonexistent/zz", refs.join("gone.md")).expect("link");
    std::os::unix::fs::symlink("b.md", refs.join("a.md")).expect("link");
    std::os::unix::fs::symlink("a.md", refs.join("b.md")).expect("link");
    let mut app = app_for(home.path());
    key(&mut app, KeyCode::Char('3'));
    let s = screen(&mut app, 120, 30);
    assert!(s.contains("`platforms: mac` names no OS Hermes knows"), "{s}");
    assert!(!s.contains("['mac']"), "{s}");
    key(&mut app, KeyCode::Char('2'));
    let s = screen(&mut app, 140, 30);
    assert!(!s.contains("No files besides SKILL.md"), "{s}");
    assert!(s.contains("references/gone.md  → /nonexistent/zz: symlink to nothing"), "{s}");
    assert!(s.contains("references/a.md  is a symlink loop (`a.md` → `b.md` → `a.md`)"), "{s}");
    let shared =
        format!("references/shared.md  → {}: symlink, read on the host", home.path().join("shared.md").display());
    assert!(s.contains(&shared), "{s}");
    key(&mut app, KeyCode::Char('b'));
    let s = screen(&mut app, 140, 30);
    assert!(s.contains("symlink, not in the docker sandbox"), "{s}");
}

#[test]
fn a_skill_skill_view_fails_on_is_marked_and_readiness_says_why() {
    let home = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/prerequisites/home");
    let mut app = app_for(&home);
    select_skill(&mut app, "env-int");
    key(&mut app, KeyCode::Char('3'));
    let s = screen(&mut app, 120, 30);
    assert!(s.contains("✗ env-int"), "{s}");
    assert!(s.contains("readiness     skill_view fails: 'int' object is not iterable"), "{s}");
}

#[test]
fn the_diagnostics_view_reads_the_repositorys_settings() {
    let home = tempfile::tempdir().expect("tmp");
    let write = |rel: &str, text: &str| {
        let path = home.path().join(rel);
        std::fs::create_dir_all(path.parent().expect("parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    write(
        "skills/ops/deploy/SKILL.md",
        "---\nname: deploy\ndescription: d\n---\nRun ${SKILL_DIR}/x and `scripts/gone.sh`.\n",
    );
    write("skills/ops/deploy/scripts/run.sh", "#!/bin/sh\n");
    write("skills/ops/notes/SKILL.md", "---\nname: notes\ndescription: d\nowner: me\n---\nbody\n");
    write("skillscope.toml", "[check.severity]\nhermes-missing-file = \"off\"\n");
    let mut app = app_for(home.path());
    app.load_check_settings();
    key(&mut app, KeyCode::Char('7'));
    key(&mut app, KeyCode::Char('a'));
    let s = screen(&mut app, 120, 30);
    assert!(s.contains(&format!("settings: {}", home.path().join("skillscope.toml").display())), "{s}");
    assert!(s.contains("H024 hermes-unknown-template") && !s.contains("hermes-missing-file"), "{s}");
    // Info (notes' unknown key) is marked in the tree only once asked for.
    assert!(s.contains("· notes") && !s.contains("notes ℹ"), "{s}");
    key(&mut app, KeyCode::Char('f'));
    key(&mut app, KeyCode::Char('f'));
    let s = screen(&mut app, 120, 30);
    assert!(s.contains("notes ℹ") && s.contains("(every severity)"), "{s}");
    // A file that cannot be used is said, and the defaults apply.
    write("skillscope.toml", "[check]\nselect = [\"nosuch\"]\n");
    app.load_check_settings();
    let s = screen(&mut app, 120, 30);
    assert!(s.contains("settings not used, defaults instead:") && s.contains("skillscope.toml:2"), "{s}");
    assert!(s.contains("hermes-missing-file"), "{s}");
}

/// A rescan is read off the UI thread: meanwhile the old tree stays on
/// screen with a note and keys work; its answer takes its place with the
/// selection kept. Asked again meanwhile, it runs again rather than show
/// what may be out of date.
#[test]
fn a_rescan_keeps_the_old_tree_on_screen_until_the_new_one_is_read() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    for name in ["alpha", "beta"] {
        let dir = home.join("skills").join(name);
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("SKILL.md"), format!("---\nname: {name}\ndescription: {name} v1\n---\nbody\n"))
            .expect("write");
    }
    let mut app = app_for(&home);
    select_skill(&mut app, "beta");
    std::fs::create_dir_all(home.join("skills/aaa")).expect("mkdir");
    std::fs::write(home.join("skills/aaa/SKILL.md"), "---\nname: aaa\ndescription: new\n---\n").expect("write");
    let job = app.start_rescan().expect("a rescan");
    assert!(app.start_rescan().is_none(), "one at a time");
    let during = screen(&mut app, 100, 20);
    assert!(during.contains("rescanning…") && !during.contains("aaa"), "{during}");
    key(&mut app, KeyCode::Char('3'));
    assert!(screen(&mut app, 100, 20).contains("readiness     available"), "keys work meanwhile");
    let changes = skillscope::engine::reload::Pending { paths: Default::default(), overflow: true };
    assert_eq!(app.apply_changes(&changes), skillscope::tui::rescan::Changes::Rescan);
    let again = app.rescanned(job.run()).expect("asked again meanwhile: read again");
    assert!(app.rescanning());
    assert!(app.rescanned(again.run()).is_none());
    let after = screen(&mut app, 100, 20);
    assert!(!after.contains("rescanning…") && after.contains("aaa"), "{after}");
    assert_eq!(app.selected_skill().map(|s| app.catalog.skills[s].name.as_str()), Some("beta"));
}

/// `r` says when the home has been read again, even when nothing on screen
/// changed; a rescan the watcher started says nothing.
#[test]
fn r_says_the_home_was_read_again() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    let changes = skillscope::engine::reload::Pending { paths: Default::default(), overflow: true };
    assert_eq!(app.apply_changes(&changes), skillscope::tui::rescan::Changes::Rescan);
    let job = app.start_rescan().expect("a rescan");
    assert!(app.rescanned(job.run()).is_none());
    assert!(!screen(&mut app, 100, 20).contains("read again"));
    let effects = key(&mut app, KeyCode::Char('r'));
    assert!(effects.iter().any(|e| matches!(e, Effect::Rescan)), "{effects:?}");
    let job = app.start_rescan().expect("a rescan");
    assert!(app.rescanned(job.run()).is_none());
    let skills = app.catalog.skills.len();
    let text = screen(&mut app, 100, 20);
    assert!(text.contains(&format!("home read again: {skills} skills")), "{text}");
}

/// Files lists the folder once per selection: moving its cursor reads
/// only the file it lands on.
#[test]
fn the_files_view_lists_the_folder_once_per_selection() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "deploy-service");
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Tab);
    screen(&mut app, 120, 40);
    let listed = app.file_entries().map(<[_]>::to_vec).expect("listed");
    assert!(listed.len() > 2);
    for _ in 0..listed.len() {
        let effects = key(&mut app, KeyCode::Char('j'));
        let asked = app.prepare(ratatui::layout::Rect::new(0, 0, 120, 40));
        let walks = effects.iter().chain(&asked).filter(|e| {
            matches!(e, Effect::Job(r) if matches!(&r.kind, skillscope::tui::jobs::JobKind::View(v)
                if matches!(v.request, skillscope::tui::view_jobs::ViewRequest::Files { .. })))
        });
        assert_eq!(walks.count(), 0, "j walks no folder");
        app.run_jobs_inline(&asked);
    }
    assert_eq!(app.file_entries().map(<[_]>::to_vec), Some(listed));
    let shown = screen(&mut app, 120, 40);
    assert!(!shown.contains("rendering…"), "{shown}");
}

/// The Files view keeps its file by path when the folder is listed again:
/// after the editor returns (the opened file's skill read again), after a
/// rescan, and with a file added before it; a file gone leaves the cursor
/// on the first. `y` and `e` then act on the file shown.
#[test]
fn the_files_view_keeps_its_file_through_a_reload() {
    let demo = DemoHome::create().expect("demo");
    let home = demo.home();
    let mut app = app_for(&home);
    select_skill(&mut app, "deploy-service");
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Tab);
    screen(&mut app, 120, 40);
    let listed = app.file_entries().map(<[_]>::to_vec).expect("listed");
    let png = listed.iter().position(|e| e.rel == "assets/logo.png").expect("png");
    assert!(png > 0, "{listed:?}");
    for _ in 0..png {
        key(&mut app, KeyCode::Char('j'));
    }
    let dir = app.catalog.skills[app.selected_skill().expect("skill")].skill_dir.clone();
    let opened = |app: &mut App| match &key(app, KeyCode::Char('e'))[..] {
        [Effect::OpenEditor { path, .. }, ..] => path.clone(),
        other => panic!("{other:?}"),
    };
    let shows_png = |app: &mut App, when: &str| {
        let s = screen(app, 120, 40);
        assert!(s.contains("▶ assets/logo.png"), "{when}:\n{s}");
        assert_eq!(opened(app), dir.join("assets/logo.png"), "{when}");
    };
    shows_png(&mut app, "before");

    // The editor returned: the event loop follows the opened file.
    let edited = skillscope::engine::reload::Pending {
        paths: [dir.join("assets/logo.png"), dir.join("SKILL.md")].into_iter().collect(),
        overflow: false,
    };
    assert_ne!(app.apply_changes(&edited), skillscope::tui::rescan::Changes::Nothing, "the skill is read again");
    shows_png(&mut app, "after the editor");

    // A rescan, with a file now listed before it.
    std::fs::write(dir.join("assets/aaa.txt"), "new\n").expect("write");
    app.rescan(engine_for(&home));
    shows_png(&mut app, "after a rescan");

    // The file removed: the cursor goes to the first file.
    std::fs::remove_file(dir.join("assets/logo.png")).expect("remove");
    app.rescan(engine_for(&home));
    let s = screen(&mut app, 120, 40);
    let first = app.file_entries().and_then(|f| f.first().map(|e| e.rel.clone())).expect("files");
    assert!(s.contains(&format!("▶ {first}")), "{s}");
    assert_eq!(opened(&mut app), dir.join(&first));
}

/// A description long enough that the frontmatter runs past the 4000
/// characters skills_list reads (which then says `---`) is shown in the
/// Preview's card as skill_view and the index read it, wrapped and cut to
/// the card.
#[test]
fn the_preview_card_shows_a_long_description() {
    let t = tempfile::tempdir().expect("tmp");
    let home = t.path().join("home");
    let dir = home.join("skills/long");
    std::fs::create_dir_all(&dir).expect("mkdir");
    let words = vec!["gamma"; 680].join(" ");
    assert!(words.len() > 4000);
    std::fs::write(dir.join("SKILL.md"), format!("---\nname: long\ndescription: {words}\n---\n# Long\n\nBody.\n"))
        .expect("write");
    let mut app = app_for(&home);
    select_skill(&mut app, "long");
    assert_eq!(app.catalog.skills[app.selected_skill().expect("skill")].description, "---", "skills_list's");
    let s = screen(&mut app, 120, 30);
    let lines: Vec<&str> = s.lines().collect();
    let at =
        lines.iter().position(|l| l.contains("│ description")).unwrap_or_else(|| panic!("a description row:\n{s}"));
    assert!(lines[at].contains("description    gamma gamma gamma") && !lines[at].contains('…'), "{s}");
    // It wraps beside its key for a few rows, the last marking the cut.
    let rows: Vec<&str> = lines[at..].iter().take_while(|l| l.contains("gamma")).copied().collect();
    assert_eq!(rows.len(), 4, "{s}");
    assert!(rows[3].contains("gamma …"), "{s}");
}

/// `d` while the Preview is still being rendered: the diff shows, and the
/// plain preview's answer arriving after it does not take its place, also
/// when the view is shown again from what is kept.
#[test]
fn the_since_diff_stays_when_the_preview_it_replaced_arrives() {
    let demo = DemoHome::create_in_git().expect("demo in git");
    let mut app = app_for(&demo.home());
    key(&mut app, KeyCode::Char('D'));
    key(&mut app, KeyCode::Enter);
    let marked = screen(&mut app, 120, 40);
    assert!(common::tree_row_marked(&marked, '~', "· paper-summary"), "{marked}");
    select_skill(&mut app, "paper-summary");
    // The frame asks for the Preview; its job has not answered yet.
    let area = ratatui::layout::Rect::new(0, 0, 120, 40);
    let mut pending = app.wanted_jobs();
    pending.extend(app.prepare(area));
    assert!(pending.iter().any(|e| matches!(e, Effect::Job(_))), "the preview is a job");
    key(&mut app, KeyCode::Char('d'));
    let diff = screen(&mut app, 120, 40);
    assert!(diff.contains("+++ now"), "{diff}");
    app.run_jobs_inline(&pending);
    // Shown again from what is kept (another view and back).
    key(&mut app, KeyCode::Char('3'));
    screen(&mut app, 120, 40);
    key(&mut app, KeyCode::Char('1'));
    let after = screen(&mut app, 120, 40);
    assert!(after.contains("+++ now"), "the diff stays:\n{after}");
    // The view's title says it shows the diff, as it stays from skill to skill.
    let title = after.lines().next().unwrap_or_default();
    assert!(title.contains("1 Preview") && title.contains("[diff]"), "{title}");
    key(&mut app, KeyCode::Char('d'));
    let title = top_line(&mut app);
    assert!(!title.contains("[diff]"), "{title}");
    // From a view that shows no diff, d shows the Preview's.
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('d'));
    let title = top_line(&mut app);
    assert!(title.contains("1 Preview") && title.contains("[diff]"), "{title}");
}

#[test]
fn a_small_terminal_keeps_the_way_to_help_and_each_row_s_marks() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "deploy-service");
    key(&mut app, KeyCode::Char('7'));
    let wide = screen(&mut app, 120, 40);
    let row = |text: &str| text.lines().find(|l| l.contains("≈ deploy-")).map(str::to_owned);
    let wide_row = row(&wide).unwrap_or_else(|| panic!("{wide}"));
    let marks: Vec<char> = "↥◔⚑✖▲".chars().filter(|c| wide_row.contains(*c)).collect();
    assert!(marks.contains(&'✖'), "{wide_row}");
    for (width, height) in [(80, 24), (60, 20), (40, 12)] {
        let text = screen(&mut app, width, height);
        let status = text.lines().last().unwrap_or_default();
        assert!(status.trim_end().ends_with("? help  q quit"), "{width}x{height}: {status}");
        let narrow = row(&text).unwrap_or_else(|| panic!("{text}"));
        for mark in &marks {
            assert!(narrow.contains(*mark), "{width}x{height}: {mark} lost from {narrow}");
        }
    }
}

#[test]
fn a_view_s_own_keys_show_that_view_and_e_on_a_folder_says_why_nothing_opens() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "deploy-service");
    key(&mut app, KeyCode::Char('3'));
    key(&mut app, KeyCode::Char('R'));
    let title = top_line(&mut app);
    assert!(title.contains("1 Preview") && title.contains("[raw]"), "{title}");
    key(&mut app, KeyCode::Char('R'));
    let title = top_line(&mut app);
    assert!(!title.contains("[raw]"), "{title}");
    key(&mut app, KeyCode::Char('2'));
    key(&mut app, KeyCode::Char('c'));
    let text = screen(&mut app, 120, 40);
    assert!(top_line(&mut app).contains("6 Prompt"), "{text}");
    assert!(text.contains("system prompt: the focus posture"), "{text}");
    key(&mut app, KeyCode::Char('g'));
    assert!(app.selected_skill().is_none(), "a folder row");
    key(&mut app, KeyCode::Char('R'));
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("R shows a skill's SKILL.md raw: select a skill"), "{text}");
    let effects = key(&mut app, KeyCode::Char('e'));
    assert!(!effects.iter().any(|e| matches!(e, Effect::OpenEditor { .. })), "{effects:?}");
    let text = screen(&mut app, 120, 40);
    assert!(text.contains("e opens a skill or a file: select one"), "{text}");
}

/// `G` pressed while the view is still being built lands at the bottom of
/// the view once it is there, not at the top of its placeholder.
#[test]
fn g_pressed_while_a_view_is_built_lands_at_its_bottom() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "deploy-service");
    key(&mut app, KeyCode::Tab);
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(120, 16)).expect("terminal");
    let asked = skillscope::tui::ui::render(&mut terminal, &mut app).expect("draw");
    assert!(asked.iter().any(|e| matches!(e, Effect::Job(_))), "the Preview is being built");
    key(&mut app, KeyCode::Char('G'));
    app.run_jobs_inline(&asked);
    let s = screen(&mut app, 120, 16);
    assert!(s.contains(" 100%"), "{s}");
    assert!(!s.contains("line 1/"), "{s}");
}

/// With the view focused, the status line gives the position and whole
/// hints: none cut in the middle, at any width.
#[test]
fn the_view_s_position_comes_with_whole_hints() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "deploy-service");
    key(&mut app, KeyCode::Tab);
    for width in [60, 80, 120, 200] {
        let s = screen(&mut app, width, 20);
        let status = s.lines().last().unwrap_or_default();
        assert!(status.contains("line 1/"), "{width}: {status}");
        assert!(!status.ends_with('…'), "{width}: a hint cut: {status}");
    }
}

/// So does `G` pressed while the Agent view's message is computed: its
/// "computing…" line is not the view it scrolls.
#[test]
fn g_pressed_while_the_agent_message_is_computed_lands_at_its_bottom() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "deploy-service");
    key(&mut app, KeyCode::Tab);
    let effects = app.handle_event(&Event::Key(KeyCode::Char('4').into()));
    let pending = draw_only(&mut app, 120, 16);
    assert!(pending.contains("computing"), "{pending}");
    key(&mut app, KeyCode::Char('G'));
    app.run_jobs_inline(&effects);
    let s = screen(&mut app, 120, 16);
    assert!(s.contains(" 100%"), "{s}");
    assert!(!s.contains("line 1/"), "{s}");
}

/// Search results name their root where the home has several (the same
/// name and category may be in two).
#[test]
fn search_results_name_their_root_where_there_are_several() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    key(&mut app, KeyCode::Char('/'));
    keys(&mut app, "deploy-service");
    let s = screen(&mut app, 120, 30);
    assert!(s.contains("  devops · local"), "{s}");
    assert!(s.contains("  ops · external 0"), "{s}");
}

/// `d` says why there is no diff when the revision cannot be compared
/// with (it toggled nothing, silently).
#[test]
fn d_says_why_there_is_no_diff_when_the_revision_cannot_be_compared() {
    let demo = DemoHome::create_in_git().expect("demo in git");
    let mut app = app_for(&demo.home());
    key(&mut app, KeyCode::Char('D'));
    common::tui::press(&mut app, KeyCode::Char('u'), crossterm::event::KeyModifiers::CONTROL);
    keys(&mut app, "nosuchrev");
    key(&mut app, KeyCode::Enter);
    let s = screen(&mut app, 120, 40);
    assert!(s.contains("no such revision"), "{s}");
    select_skill(&mut app, "paper-summary");
    key(&mut app, KeyCode::Char('d'));
    let notice = app.notice.clone().unwrap_or_default();
    assert!(notice.contains("cannot compare with nosuchrev"), "{notice}");
    assert!(!screen(&mut app, 120, 40).lines().next().unwrap_or_default().contains("[diff]"));
}

/// At 80 columns the status line keeps the marks' revision and the
/// counts: the folder is cut and the facts that matter least give way.
#[test]
fn a_narrow_status_line_keeps_the_marks_revision() {
    let demo = DemoHome::create_in_git().expect("demo in git");
    let mut app = app_for(&demo.home());
    key(&mut app, KeyCode::Char('D'));
    key(&mut app, KeyCode::Enter);
    screen(&mut app, 80, 24);
    app.notice = None;
    let s = screen(&mut app, 80, 24);
    let status = s.lines().last().unwrap_or_default();
    assert!(status.contains("listed │ since HEAD (") && status.contains("changes)"), "{status}");
    assert!(status.contains("? help"), "{status}");
    // Narrower still, the folder gives way to them entirely.
    let s = screen(&mut app, 60, 24);
    let status = s.lines().last().unwrap_or_default();
    assert!(status.contains("listed │ since HEAD ("), "{status}");
    let wide = screen(&mut app, 160, 24);
    let status = wide.lines().last().unwrap_or_default();
    assert!(status.contains("│ local │ linux │") && status.contains("│ index "), "{status}");
}

/// The Agent view of a skill without a slash command says which gate
/// keeps it, wrapped at the view's width.
#[test]
fn the_agent_view_says_why_a_skill_has_no_command() {
    let demo = DemoHome::create().expect("demo");
    let mut app = app_for(&demo.home());
    select_skill(&mut app, "screenshot");
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char('4'));
    let s = screen(&mut app, 80, 24);
    assert!(s.contains("This skill registers no slash command: its"), "{s}");
    assert!(s.contains("platforms leave out linux"), "{s}");
    key(&mut app, KeyCode::Esc);
    select_skill(&mut app, "legacy-notes");
    let s = screen(&mut app, 120, 24);
    assert!(s.contains("no slash command: config.yaml disables it"), "{s}");
}

/// `y` on a skill removed since the revision copies its SKILL.md's diff
/// (it has no path now); the menu offers the folder it was in too.
#[test]
fn y_on_a_removed_skill_copies_what_it_was() {
    let tmp = tempfile::tempdir().expect("tmp");
    let home = tmp.path().canonicalize().expect("canon").join("home");
    for name in ["kept", "gone"] {
        let dir = home.join("skills/ops").join(name);
        std::fs::create_dir_all(&dir).expect("mkdir");
        std::fs::write(dir.join("SKILL.md"), format!("---\nname: {name}\ndescription: The {name} one.\n---\nBody.\n"))
            .expect("write");
    }
    common::commit_all(&home);
    std::fs::remove_dir_all(home.join("skills/ops/gone")).expect("remove");
    let mut app = app_for(&home);
    key(&mut app, KeyCode::Char('D'));
    key(&mut app, KeyCode::Enter);
    screen(&mut app, 120, 30);
    key(&mut app, KeyCode::Char('G'));
    let s = screen(&mut app, 120, 30);
    assert!(common::tree_row_marked(&s, '-', "gone  skills/ops/gone"), "{s}");
    let target = app.copy_target().expect("something to copy");
    assert_eq!(target.label, "its SKILL.md's diff");
    assert!(target.text.contains("-name: gone"), "{}", target.text);
    let offered: Vec<char> = app.copy_items().iter().map(|i| i.key).collect();
    assert_eq!(offered, ['d', 'm', 'n']);
    // Its name lines up with the other skills' (a blank marker slot).
    let column = |row: &str| s.lines().find_map(|l| l.find(row).map(|at| l[..at].chars().count()));
    assert_eq!(column("gone  skills/ops/gone"), column("kept"), "{s}");
    // The menu pads each label to the longest, a gap before its value.
    key(&mut app, KeyCode::Char('Y'));
    let menu = screen(&mut app, 120, 30);
    assert!(menu.contains("d folder it was in     skills/ops/gone"), "{menu}");
    assert!(menu.contains("m its SKILL.md's diff  --- HEAD"), "{menu}");
    // `/` finds it too, by name or folder, after the skills there are.
    key(&mut app, KeyCode::Esc);
    key(&mut app, KeyCode::Char('/'));
    keys(&mut app, "gone");
    let found = screen(&mut app, 120, 30);
    assert!(common::tree_row_marked(&found, '-', "gone  skills/ops/gone"), "{found}");
    assert!(!found.contains("No skill matches"), "{found}");
}
