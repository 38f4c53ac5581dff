-- Retention (issue 19, item 5): a profile may override SESSION_RETENTION_DAYS
-- (null = the global setting, 0 = keep its sessions forever).
ALTER TABLE "profiles" ADD COLUMN "retention_days" INTEGER;
