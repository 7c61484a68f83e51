ALTER TABLE "cases" ADD COLUMN "off_track" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_preferences" ADD COLUMN "progress" text DEFAULT 'immediate' NOT NULL;--> statement-breakpoint
CREATE INDEX "cases_off_track_created_idx" ON "cases" USING btree ("created_at","case_id") WHERE "cases"."off_track";--> statement-breakpoint
-- Cases whose latest done progress scan (by when it was sent) has a tooth off track, as the fit job keeps them from now on.
UPDATE "cases" SET "off_track" = true WHERE EXISTS (
	SELECT 1 FROM "progress_scans" "latest", jsonb_array_elements("latest"."arches") AS "arch", jsonb_array_elements("arch"->'teeth') AS "tooth"
	WHERE "latest"."progress_scan_id" = (
		SELECT "p"."progress_scan_id" FROM "progress_scans" "p" WHERE "p"."case_id" = "cases"."case_id" AND "p"."state" = 'done'
		ORDER BY "p"."created_at" DESC, "p"."progress_scan_id" DESC LIMIT 1
	) AND ("tooth"->>'offTrack')::boolean
);
