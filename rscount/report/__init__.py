"""Stage 7, reports: count records, text for people, batches of task files judged into report rows,
report files (Markdown, JSON, JUnit), plots, and rewriting pins."""
