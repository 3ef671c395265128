"""The app's screens: the stepping debugger, the tensor views, the course demo, help and prompts."""
