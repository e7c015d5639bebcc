-- Written by hand (a schema cannot declare triggers). A proposal written with
-- `replaces` records its intent as a `replace` event that copies the old fact's text
-- (lib/memory/replace.ts, recordReplaceIntent), while the old fact stays live. When
-- the old fact is deleted for good before anyone approves (Forget permanently, the
-- 7-day purge, erasure, a cascade), that copy must go in the same statement, or the
-- purged text lives on in the proposal's history and shows as "was …" once approved.
-- A retirement (retireReplaced) deletes the old row after its replacement is live, so
-- its `replace` event, on a live fact, stays.
CREATE TRIGGER `facts_drop_replace_intents_after_delete` AFTER DELETE ON `facts` BEGIN
	DELETE FROM fact_events WHERE other_fact_id = old.id AND kind = 'replace'
		AND fact_id IN (SELECT id FROM facts WHERE proposed_at IS NOT NULL);
END;
--> statement-breakpoint
-- 0017's trigger read any `replace` event naming the deleted fact as "retired into a
-- replacement, no fact.purged"; a waiting proposal's intent is not one, so receivers,
-- who were sent a workspace fact's text, were never told to drop it. Only a replace
-- event on a fact that is live (not a proposal) counts now, whichever trigger runs first.
DROP TRIGGER `facts_queue_webhooks_after_delete`;
--> statement-breakpoint
CREATE TRIGGER `facts_queue_webhooks_after_delete` AFTER DELETE ON `facts` BEGIN
	UPDATE webhook_deliveries SET payload = json_remove(payload, '$.data.text', '$.data.actor')
		WHERE fact_id = old.id AND status = 'pending' AND payload IS NOT NULL;
	INSERT OR IGNORE INTO webhook_deliveries (endpoint_id, message_id, fact_id, event, payload, next_at, created_at)
	SELECT e.id, 'msg_purge_' || old.id, old.id, 'fact.purged',
		json_object('type', 'fact.purged', 'timestamp', strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), 'data',
			json_object('fact_id', old.id, 'workspace_id', old.workspace_id,
				'agent', json_object('id', old.agent_id, 'handle', (SELECT handle FROM agents WHERE id = old.agent_id)),
				'scope', old.scope)),
		strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
	FROM webhook_endpoints e
	WHERE e.workspace_id = old.workspace_id AND e.enabled = 1 AND e.events LIKE '% fact.purged %'
		AND NOT EXISTS (SELECT 1 FROM fact_events r JOIN facts f ON f.id = r.fact_id
			WHERE r.other_fact_id = old.id AND r.kind = 'replace' AND f.proposed_at IS NULL);
END;
