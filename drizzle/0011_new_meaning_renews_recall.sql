-- Made with `drizzle-kit generate --custom` (a schema cannot declare triggers).
-- A fact's vector arrives a moment after the fact (lib/embeddings/embedder.ts), and a
-- recall answer kept in that moment was ranked without it. Storing a vector bumps the
-- agent's memory version, like any change to its facts (drizzle/0005), so such an
-- answer is not served again; the embedder or `reindex`, whoever stores it.
CREATE TRIGGER `fact_vectors_bump_memory_version_after_insert` AFTER INSERT ON `fact_vectors` BEGIN
	UPDATE agents SET memory_version = memory_version + 1
		WHERE id = (SELECT agent_id FROM facts WHERE facts.id = new.fact_id);
END;
