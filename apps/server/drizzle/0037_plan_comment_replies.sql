CREATE TABLE "plan_comment_replies" (
	"reply_id" integer PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "plan_comment_replies_reply_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 2147483647 START WITH 1 CACHE 1),
	"comment_id" integer NOT NULL,
	"author_id" integer NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "plan_shares" ADD COLUMN "emailed_to" text;--> statement-breakpoint
ALTER TABLE "plan_comment_replies" ADD CONSTRAINT "plan_comment_replies_comment_id_plan_comments_comment_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."plan_comments"("comment_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "plan_comment_replies" ADD CONSTRAINT "plan_comment_replies_author_id_users_user_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("user_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "plan_comment_replies_comment_idx" ON "plan_comment_replies" USING btree ("comment_id","reply_id");--> statement-breakpoint
CREATE INDEX "plan_shares_mailed_idx" ON "plan_shares" USING btree ("created_by","created_at");