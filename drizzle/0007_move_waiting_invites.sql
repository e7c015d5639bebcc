-- Custom SQL migration file, put your code below! --
-- The first version made the account and the membership when an owner added an
-- email, and let the invite link set that account's password: whoever held any
-- workspace's link to the address got every workspace it was in. A membership
-- still waiting on its link (no password, no OAuth account, an invite not yet
-- accepted) becomes an invitation of the same workspace, role and link, and stops
-- being a membership: it is granted again only when the link is accepted.
INSERT OR IGNORE INTO `workspace_invites` (`id`, `workspace_id`, `email`, `name`, `role`, `token_hash`, `invited_by`, `created_at`, `expires_at`)
SELECT 'inv_' || lower(hex(randomblob(12))), m.`workspace_id`, u.`email`, u.`name`, m.`role`, li.`token_hash`, li.`invited_by`, li.`created_at`, li.`expires_at`
FROM `invites` li
JOIN `memberships` m ON m.`workspace_id` = li.`workspace_id` AND m.`user_id` = li.`user_id`
JOIN `users` u ON u.`id` = li.`user_id`
WHERE li.`accepted_at` IS NULL
  AND u.`password_hash` IS NULL
  AND NOT EXISTS (SELECT 1 FROM `accounts` a WHERE a.`user_id` = u.`id`);
--> statement-breakpoint
DELETE FROM `memberships`
WHERE EXISTS (
  SELECT 1 FROM `invites` li JOIN `users` u ON u.`id` = li.`user_id`
  WHERE li.`workspace_id` = `memberships`.`workspace_id` AND li.`user_id` = `memberships`.`user_id`
    AND li.`accepted_at` IS NULL
    AND u.`password_hash` IS NULL
    AND NOT EXISTS (SELECT 1 FROM `accounts` a WHERE a.`user_id` = u.`id`)
);
