-- The demo database: skills stored as rows of `hermes_skills`.
CREATE TABLE hermes_skills (
    id INTEGER PRIMARY KEY,
    user_id TEXT NOT NULL,
    name TEXT NOT NULL,
    description TEXT,
    content TEXT,
    category TEXT,
    version TEXT,
    is_active INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at TEXT NOT NULL DEFAULT CURRENT_TIMESTAMP
);
INSERT INTO hermes_skills (user_id, name, description, content, category, version, is_active, created_at, updated_at)
VALUES
('demo', 'meeting-notes', 'Turn a meeting transcript into decisions and actions',
'---
name: meeting-notes
description: Turn a meeting transcript into decisions and actions
version: 1.0.0
---

# Meeting notes

This skill lives in the database, not in a folder. Editing it (`e`) opens a
temporary copy; saving writes the row back unless someone changed it meanwhile.

1. List the **decisions**, one line each.
2. List the **actions** with their owner and date.
', 'productivity', '1.0.0', 1, '2026-01-10 09:00:00', '2026-01-10 09:00:00'),
('demo', 'standup', 'A database copy of standup, hidden by the folder skill',
'---
name: standup
description: A database copy of standup, hidden by the folder skill
---

File layers come first: this row is shadowed by `personal/standup`.
', 'productivity', '0.9.0', 1, '2026-01-09 09:00:00', '2026-01-09 09:00:00'),
('demo', 'old-habit', 'An inactive row: not a skill', '---
name: old-habit
description: An inactive row
---
', 'productivity', '0.1.0', 0, '2026-01-01 09:00:00', '2026-01-01 09:00:00'),
('other', 'others-row', 'A row of user other', '---
name: others-row
description: A row of user other
---
', 'misc', '1.0.0', 1, '2026-01-01 09:00:00', '2026-01-01 09:00:00');
