"""Stage 7, reports: count records, text for people, batches of task files, report files (Markdown,
JSON, JUnit), plots, and rewriting pins."""
