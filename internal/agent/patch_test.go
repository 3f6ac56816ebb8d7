package agent

const rebaseDiff = "diff --git a/app/users.py b/app/users.py\n--- a/app/users.py\n+++ b/app/users.py\n@@ -9,6 +9,7 @@\n \n def get_user(user_id):\n+    # one connection per call\n     with closing(connect()) as conn:\n         row = conn.execute(\"SELECT * FROM users WHERE id = ?\", (user_id,)).fetchone()\n     if row is None:\n         return None\n"
