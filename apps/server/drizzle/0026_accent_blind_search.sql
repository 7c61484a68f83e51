-- Accent-blind search (docs/decisions/lists-and-search.md § Accent-blind search): "brzeczy" finds "Brzęczy".
-- portal_fold is unaccent with its dictionary named (the two-argument form does not depend
-- on search_path, so it may be IMMUTABLE and back an index) and lowered, so that trigram
-- indexes hold one form of each name.
CREATE EXTENSION IF NOT EXISTS "unaccent";--> statement-breakpoint
CREATE OR REPLACE FUNCTION "portal_fold"(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  AS $$ SELECT pg_catalog.lower(public.unaccent('public.unaccent'::regdictionary, $1)) $$;--> statement-breakpoint
DROP INDEX IF EXISTS "patient_names_trgm_idx";--> statement-breakpoint
CREATE INDEX "patient_names_folded_trgm_idx" ON "patient_names" USING gin ("portal_fold"("name") gin_trgm_ops);--> statement-breakpoint
DROP INDEX IF EXISTS "cases_patient_name_trgm_idx";--> statement-breakpoint
CREATE INDEX "cases_patient_name_trgm_idx" ON "cases" USING gin ("portal_fold"("first_name" || ' ' || "last_name") gin_trgm_ops);
