CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"username" text,
	"ip" text,
	"kind" text NOT NULL,
	"subject" text,
	"rows" integer,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
ALTER TABLE "settings" ADD COLUMN "retention_days" integer DEFAULT 730 NOT NULL;--> statement-breakpoint
CREATE INDEX "audit_log_at_idx" ON "audit_log" USING btree ("at");--> statement-breakpoint
CREATE INDEX "audit_log_kind_at_idx" ON "audit_log" USING btree ("kind","at");--> statement-breakpoint
-- Append-only, whoever asks (docs/decisions.md, Audit log): no update, no truncate, and a delete
-- only of an entry older than the retention setting (the daily retention task's rule).
CREATE FUNCTION audit_log_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.at < now() - make_interval(days => coalesce((SELECT s.retention_days FROM settings s LIMIT 1), 730)) THEN
      RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit_log: an entry within the retention period cannot be deleted'
      USING ERRCODE = 'insufficient_privilege';
  END IF;
  RAISE EXCEPTION 'audit_log is append-only' USING ERRCODE = 'insufficient_privilege';
END $$;
--> statement-breakpoint
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_guard();
--> statement-breakpoint
CREATE TRIGGER audit_log_delete_after_retention BEFORE DELETE ON audit_log FOR EACH ROW EXECUTE FUNCTION audit_log_guard();
--> statement-breakpoint
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log FOR EACH STATEMENT EXECUTE FUNCTION audit_log_guard();
