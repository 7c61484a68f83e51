-- The staff search's doctor names, accent-blind as the patients' since 0026 (docs/decisions/lists-and-search.md
-- § Accent-blind search): without this index each search folded every user's name, 10 ms at
-- 5,000 doctors, a search's whole cost at a million cases.
DROP INDEX IF EXISTS "users_full_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "users_full_name_trgm_idx" ON "users" USING gin ("portal_fold"("first_name" || ' ' || "last_name") gin_trgm_ops);
