"""Stage 2, the knowledge: compiling labels to circuits (CNF or SDD), checking them, and the facts
closed forms and symmetries rest on. Imports only the task stage."""
