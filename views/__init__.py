"""The pages: layout and prose only (each file is a page script run by st.navigation)."""
