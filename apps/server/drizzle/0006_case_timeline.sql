ALTER TABLE "case_status_history" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "case_status_history" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "case_status_history" ADD COLUMN "courier" text;--> statement-breakpoint
ALTER TABLE "case_status_history" ADD COLUMN "tracking_number" text;--> statement-breakpoint
-- Search matches the patient's name too (services/cases/find-cases.ts): a trigram index on
-- the same expression the query uses, as for doctors' names in 0001.
CREATE INDEX IF NOT EXISTS "cases_patient_name_trgm_idx" ON "cases" USING gin (("first_name" || ' ' || "last_name") gin_trgm_ops);
