-- Issue 23 item 7: what a run item wants its caller to know beside its records (e.g. that the
-- recipe's next-page rule found nothing and the page's own next link was followed instead).
ALTER TABLE run_items ADD COLUMN message text;
