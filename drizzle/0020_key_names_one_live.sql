-- Written by hand (data, not schema): before 0021's unique index on an agent's
-- key names (any case) among keys not revoked, the keys that would break it.
-- Code allowed a name again once its key had expired, so an expired key that
-- shares its name with a later one is marked revoked as of its expiry (it has
-- not worked since; lib/admin/agent-keys.ts does the same from now on).
UPDATE `agent_keys` SET `revoked_at` = `expires_at`
WHERE `revoked_at` IS NULL AND `expires_at` IS NOT NULL
	AND `expires_at` <= strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
	AND EXISTS (
		SELECT 1 FROM `agent_keys` AS `later`
		WHERE `later`.`agent_id` = `agent_keys`.`agent_id` AND lower(`later`.`name`) = lower(`agent_keys`.`name`)
			AND `later`.`revoked_at` IS NULL AND `later`.`id` <> `agent_keys`.`id`
			AND (`later`.`expires_at` IS NULL OR `later`.`expires_at` > `agent_keys`.`expires_at`
				OR (`later`.`expires_at` = `agent_keys`.`expires_at` AND `later`.`id` > `agent_keys`.`id`))
	);
--> statement-breakpoint
-- Two working keys of one name (a race the code's check could lose) both keep
-- working: all but the newest take their prefix into the name, so the list tells them apart.
UPDATE `agent_keys` SET `name` = `name` || ' · ' || `prefix`
WHERE `revoked_at` IS NULL
	AND EXISTS (
		SELECT 1 FROM `agent_keys` AS `newer`
		WHERE `newer`.`agent_id` = `agent_keys`.`agent_id` AND lower(`newer`.`name`) = lower(`agent_keys`.`name`)
			AND `newer`.`revoked_at` IS NULL
			AND (`newer`.`created_at` > `agent_keys`.`created_at`
				OR (`newer`.`created_at` = `agent_keys`.`created_at` AND `newer`.`id` > `agent_keys`.`id`))
	);
