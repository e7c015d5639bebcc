-- Written by hand (drizzle-kit's custom migration): erased means gone from the
-- full-text index too (issue #16). FTS5 keeps a deleted fact's tokens in its
-- segments until a merge rewrites them; with secure-delete on (kept in
-- facts_fts_config), a delete removes them at once. The optimize merges every
-- segment once, so what was deleted before this migration goes as well.
INSERT INTO facts_fts(facts_fts, rank) VALUES ('secure-delete', 1);
--> statement-breakpoint
INSERT INTO facts_fts(facts_fts) VALUES ('optimize');
