-- Made with `drizzle-kit generate --custom` (a schema cannot declare triggers).
-- Versions that tell a kept recall answer when it is out of date (lib/api/recall-cache.ts).
-- A recall depends on the agent's facts and on the rows its place is derived from:
-- channels, channel members and memberships. Every change to those bumps a counter
-- here, in the same statement, so no writer (app, CLI, import, another process) can
-- forget to. Each API request reads both counters with its key. A later migration
-- that rebuilds one of these tables must create its triggers again; `mnemo check`
-- names any that are missing.
CREATE TRIGGER `facts_bump_memory_version_after_insert` AFTER INSERT ON `facts` BEGIN
	UPDATE agents SET memory_version = memory_version + 1 WHERE id = new.agent_id;
END;
--> statement-breakpoint
CREATE TRIGGER `facts_bump_memory_version_after_update` AFTER UPDATE ON `facts` BEGIN
	UPDATE agents SET memory_version = memory_version + 1 WHERE id = new.agent_id;
	UPDATE agents SET memory_version = memory_version + 1 WHERE id = old.agent_id AND old.agent_id <> new.agent_id;
END;
--> statement-breakpoint
CREATE TRIGGER `facts_bump_memory_version_after_delete` AFTER DELETE ON `facts` BEGIN
	UPDATE agents SET memory_version = memory_version + 1 WHERE id = old.agent_id;
END;
--> statement-breakpoint
CREATE TRIGGER `channels_bump_places_version_after_insert` AFTER INSERT ON `channels` BEGIN
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = new.workspace_id;
END;
--> statement-breakpoint
CREATE TRIGGER `channels_bump_places_version_after_update` AFTER UPDATE ON `channels` BEGIN
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = new.workspace_id;
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = old.workspace_id AND old.workspace_id <> new.workspace_id;
END;
--> statement-breakpoint
CREATE TRIGGER `channels_bump_places_version_after_delete` AFTER DELETE ON `channels` BEGIN
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = old.workspace_id;
END;
--> statement-breakpoint
CREATE TRIGGER `channel_members_bump_places_version_after_insert` AFTER INSERT ON `channel_members` BEGIN
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = new.workspace_id;
END;
--> statement-breakpoint
CREATE TRIGGER `channel_members_bump_places_version_after_update` AFTER UPDATE ON `channel_members` BEGIN
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = new.workspace_id;
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = old.workspace_id AND old.workspace_id <> new.workspace_id;
END;
--> statement-breakpoint
CREATE TRIGGER `channel_members_bump_places_version_after_delete` AFTER DELETE ON `channel_members` BEGIN
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = old.workspace_id;
END;
--> statement-breakpoint
CREATE TRIGGER `memberships_bump_places_version_after_insert` AFTER INSERT ON `memberships` BEGIN
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = new.workspace_id;
END;
--> statement-breakpoint
CREATE TRIGGER `memberships_bump_places_version_after_update` AFTER UPDATE ON `memberships` BEGIN
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = new.workspace_id;
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = old.workspace_id AND old.workspace_id <> new.workspace_id;
END;
--> statement-breakpoint
CREATE TRIGGER `memberships_bump_places_version_after_delete` AFTER DELETE ON `memberships` BEGIN
	UPDATE workspaces SET places_version = places_version + 1 WHERE id = old.workspace_id;
END;
