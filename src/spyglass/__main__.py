from spyglass.cli.main import main

main()
