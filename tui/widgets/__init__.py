"""The app's widgets, one class per module; each takes attributes from its screen and posts messages up."""
