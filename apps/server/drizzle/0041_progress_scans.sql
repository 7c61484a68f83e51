CREATE TABLE "progress_scans" (
	"progress_scan_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "progress_scans_progress_scan_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"case_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"stage" integer NOT NULL,
	"state" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"upper_key" text,
	"upper_bytes" bigint,
	"lower_key" text,
	"lower_bytes" bigint,
	"arches" jsonb,
	"uploaded_by" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "progress_scans_upper_key_unique" UNIQUE("upper_key"),
	CONSTRAINT "progress_scans_lower_key_unique" UNIQUE("lower_key"),
	CONSTRAINT "progress_scans_state_check" CHECK ("progress_scans"."state" in ('queued', 'running', 'done', 'failed')),
	CONSTRAINT "progress_scans_some_arch" CHECK ("progress_scans"."upper_key" is not null or "progress_scans"."lower_key" is not null)
);
--> statement-breakpoint
ALTER TABLE "progress_scans" ADD CONSTRAINT "progress_scans_case_id_cases_case_id_fk" FOREIGN KEY ("case_id") REFERENCES "public"."cases"("case_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "progress_scans" ADD CONSTRAINT "progress_scans_plan_id_treatment_plans_plan_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."treatment_plans"("plan_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "progress_scans" ADD CONSTRAINT "progress_scans_uploaded_by_users_user_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "progress_scans_case_created" ON "progress_scans" USING btree ("case_id","created_at");