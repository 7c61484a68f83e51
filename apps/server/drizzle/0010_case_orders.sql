ALTER TABLE "cases" ADD COLUMN "parent_case_id" integer;--> statement-breakpoint
ALTER TABLE "cases" ADD COLUMN "order_type" text;--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_parent_case_id_cases_case_id_fk" FOREIGN KEY ("parent_case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "cases_parent_idx" ON "cases" USING btree ("parent_case_id","case_id");--> statement-breakpoint
ALTER TABLE "cases" ADD CONSTRAINT "cases_order_pair_check" CHECK (("cases"."parent_case_id" is null) = ("cases"."order_type" is null));