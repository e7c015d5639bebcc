CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`endpoint_id` text NOT NULL,
	`message_id` text NOT NULL,
	`fact_id` text,
	`event` text NOT NULL,
	`payload` text,
	`status` text DEFAULT 'pending' NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`next_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	`claimed_until` text,
	`last_code` integer,
	`last_error` text,
	`last_attempt_at` text,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`endpoint_id`) REFERENCES `webhook_endpoints`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_deliveries_due_idx` ON `webhook_deliveries` (`next_at`) WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `webhook_deliveries_fact_idx` ON `webhook_deliveries` (`fact_id`,`endpoint_id`,`id`) WHERE "webhook_deliveries"."status" = 'pending';--> statement-breakpoint
CREATE INDEX `webhook_deliveries_endpoint_idx` ON `webhook_deliveries` (`endpoint_id`,`id`);--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_message_idx` ON `webhook_deliveries` (`endpoint_id`,`message_id`);--> statement-breakpoint
CREATE TABLE `webhook_endpoints` (
	`id` text PRIMARY KEY NOT NULL,
	`workspace_id` text NOT NULL,
	`url` text NOT NULL,
	`events` text NOT NULL,
	`secret` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`disabled_reason` text,
	`failures_in_a_row` integer DEFAULT 0 NOT NULL,
	`created_by` text NOT NULL,
	`created_at` text DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')) NOT NULL,
	FOREIGN KEY (`workspace_id`) REFERENCES `workspaces`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `webhook_endpoints_workspace_idx` ON `webhook_endpoints` (`workspace_id`);--> statement-breakpoint
-- Written by hand after drizzle-kit's part (a schema cannot declare triggers).
-- Webhook deliveries are queued by the database in the statement that records the
-- change, whoever writes (app, CLI, import, another process), so a crash after the
-- commit loses none and a rollback sends none. The sender (lib/webhooks/sender.ts)
-- reads the queue. Privacy: only a workspace fact's payload carries its text (and
-- who acted); a channel or person fact's carries ids, scope and the event, since
-- owners may not read those facts in the app either.
CREATE TRIGGER `fact_events_queue_webhooks` AFTER INSERT ON `fact_events` BEGIN
	INSERT OR IGNORE INTO webhook_deliveries (endpoint_id, message_id, fact_id, event, payload, next_at, created_at)
	SELECT e.id, 'msg_evt_' || new.id, f.id, x.event,
		json_object('type', x.event, 'timestamp', new.at, 'data',
			CASE WHEN f.scope = 'workspace' THEN json_object(
				'fact_id', f.id, 'workspace_id', f.workspace_id,
				'agent', json_object('id', f.agent_id, 'handle', (SELECT handle FROM agents WHERE id = f.agent_id)),
				'scope', f.scope, 'proposal', json(CASE WHEN f.proposed_at IS NULL THEN 'false' ELSE 'true' END),
				'replaced_fact_id', new.other_fact_id,
				'actor', json_object('kind', new.actor_kind, 'id', new.actor_id, 'name', new.actor_name),
				'text', f.body)
			ELSE json_object(
				'fact_id', f.id, 'workspace_id', f.workspace_id,
				'agent', json_object('id', f.agent_id, 'handle', (SELECT handle FROM agents WHERE id = f.agent_id)),
				'scope', f.scope, CASE f.scope WHEN 'channel' THEN 'channel_id' ELSE 'person_id' END, f.scope_ref,
				'proposal', json(CASE WHEN f.proposed_at IS NULL THEN 'false' ELSE 'true' END),
				'replaced_fact_id', new.other_fact_id)
			END),
		new.at, new.at
	FROM facts f
	JOIN (SELECT 'fact.' || CASE new.kind
		WHEN 'remember' THEN 'remembered' WHEN 'correct' THEN 'corrected' WHEN 'pin' THEN 'pinned'
		WHEN 'unpin' THEN 'unpinned' WHEN 'forget' THEN 'forgotten' WHEN 'restore' THEN 'restored'
		WHEN 'propose' THEN 'proposed' WHEN 'approve' THEN 'approved' WHEN 'decline' THEN 'declined'
		WHEN 'replace' THEN 'replaced' ELSE new.kind END AS event) x
	JOIN webhook_endpoints e ON e.workspace_id = f.workspace_id AND e.enabled = 1 AND e.events LIKE '% ' || x.event || ' %'
	WHERE f.id = new.fact_id;
END;
--> statement-breakpoint
-- A fact deleted for good (Forget permanently, the 7-day purge, erasure, a cascade) is
-- "fact.purged", unless it was retired into a replacement (whose "fact.replaced" says
-- so). Its text leaves every delivery still waiting in the same statement: erased
-- means gone from the queue too (delivered rows keep no payload at all).
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
		AND NOT EXISTS (SELECT 1 FROM fact_events WHERE other_fact_id = old.id AND kind = 'replace');
END;
