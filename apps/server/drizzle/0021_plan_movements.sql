CREATE TABLE "plan_movements" (
	"plan_id" integer NOT NULL,
	"arch" text NOT NULL,
	"teeth" jsonb NOT NULL,
	"unavailable" text,
	"measured_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "plan_movements_plan_id_arch_pk" PRIMARY KEY("plan_id","arch")
);
--> statement-breakpoint
ALTER TABLE "plan_movements" ADD CONSTRAINT "plan_movements_plan_id_treatment_plans_plan_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."treatment_plans"("plan_id") ON DELETE no action ON UPDATE no action;