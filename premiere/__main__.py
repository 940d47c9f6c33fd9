from premiere.cli import main

main()
