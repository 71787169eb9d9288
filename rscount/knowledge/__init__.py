"""Stage 3, the knowledge: compiling labels to circuits (CNF or SDD), checking them, and the facts
closed forms and symmetries rest on. Imports the task and formats stages."""
