-- A staff-wide search's page, newest (or oldest) first: the newest cases of each name it
-- matched, read in created_at order from these indexes and merged, a page's worth per name
-- (find-cases.ts topMatches), instead of every case of a common surname sorted (8,423 at a
-- million cases). They carry what a search filters on and, like 0014's, what leaves out the
-- earlier reads' cases, so a search's count reads them alone too.
CREATE INDEX "cases_first_name_created_idx" ON "cases" USING btree ("first_name","created_at","case_id") INCLUDE ("status","doctor_user_id");--> statement-breakpoint
CREATE INDEX "cases_last_name_created_idx" ON "cases" USING btree ("last_name","created_at","case_id") INCLUDE ("status","doctor_user_id","first_name");
