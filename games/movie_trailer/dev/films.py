# ruff: noqa: E501, RUF001
"""Movie Trailer's film catalog in shorthand, the catalog tool's input.

One film a line: ``title | year | tiles``. A tile goes in the board category of its border
colour (green place, blue genre, yellow generic clue, red leading role) unless suffixes say
where it fits: /L leading role, /F genre, /P place, /C generic clue, /N ending, /G good, /E evil.
``RULEBOOK`` lists the films the rulebook names; the tiles are Premiere's reading of each film.
"""

from __future__ import annotations

RULEBOOK = frozenset(
    {
        "King Kong",
        "Dracula",
        "Toy Story",
        "The Blues Brothers",
        "Pulp Fiction",
        "Avatar",
        "Lawrence of Arabia",
        "Blade Runner",
        "Antarctica",
        "The Matrix",
        "Flash Gordon",
        "Invasion of the Body Snatchers",
        "Moon",
        "Raiders of the Lost Ark",
        "Indiana Jones and the Temple of Doom",
        "Indiana Jones and the Last Crusade",
        "Indiana Jones and the Kingdom of the Crystal Skull",
    }
)

FILMS = """
King Kong | 1933 | jungle new-york island adventure classic blonde giant monster/E death/N airplane/C/N
Dracula | 1931 | castle horror classic vampire/L/E sunlight/C/G knife/C/N death/N blood
Toy Story | 1995 | house animation family comedy toys kid/L/C cowboy astronaut/L/G villain/E race/N
The Blues Brothers | 1980 | road-movie musical/F/C comedy car money police/C/E concert/C/N prison/P/N musician
Pulp Fiction | 1994 | drugs gun/C/F ensemble money fight california killer/L/E/C dance crime gangster
Avatar | 2009 | galaxy computer/C jungle/P spaceships planet sci-fi alien/L/G soldier/E adventure epic
Lawrence of Arabia | 1962 | desert epic war biopic soldier horse/C sunlight explosion hero/G
Blade Runner | 1982 | city sci-fi robot/L/E detective dove/N storm/N police/L/C california/P
Antarctica | 1983 | snow dog/L/G adventure drama sea ship death/C
The Matrix | 1999 | computer/C/P city sci-fi action dream gun agent/E hero/L/G mentor/G fight sunlight
Flash Gordon | 1980 | planet/P spaceships sci-fi adventure hero/L/G villain/E king/E musician/C apocalypse
Invasion of the Body Snatchers | 1956 | small-town horror sci-fi classic alien/E doctor/L/G dream escape/N
Moon | 2009 | moon/P/C planet/P sci-fi drama astronaut/L/G computer/C/G robot/G mirror escape/N
Raiders of the Lost Ark | 1981 | desert jungle cave adventure action hero/L/G treasure/C villain/E soldier/E ancient/P airplane/C
Indiana Jones and the Temple of Doom | 1984 | jungle cave palace adventure action hero/L/G kid/L/G blonde/L treasure/C/N magic/C/E airplane/C
Indiana Jones and the Last Crusade | 1989 | desert castle ancient adventure action hero/L/G mentor/L/G soldier/E treasure/C/N horse/C/N book/C airplane/C
Indiana Jones and the Kingdom of the Crystal Skull | 2008 | jungle desert ancient adventure action hero/L/G alien/C/E treasure/C agent/E car/C spaceships/N
Star Wars | 1977 | galaxy spaceships planet/P desert sci-fi epic adventure hero/L/G princess/L/G villain/E robot/G mentor/G sword/C explosion/N
The Empire Strikes Back | 1980 | galaxy spaceships snow planet/P sci-fi epic hero/L/G villain/E mentor/G robot/G sword/C fight/N
Return of the Jedi | 1983 | galaxy spaceships forest planet/P sci-fi epic hero/L/G villain/E princess/L/G explosion/N party/N
Jaws | 1975 | sea island small-town thriller horror shark/L/E police/L/G scientist/L/G ship blood explosion/N
Jurassic Park | 1993 | island jungle sci-fi adventure dinosaur/L/E scientist/L/G kid/G computer/C blood escape/N
E.T. the Extra-Terrestrial | 1982 | house small-town sci-fi family alien/L/G kid/L/G scientist/E moon/C phone/C escape/N spaceships/N
Back to the Future | 1985 | small-town house sci-fi comedy adventure teenagers/L scientist/L/G time-travel/C car/C clock/C storm/C villain/E party/C
Titanic | 1997 | ship sea romance drama disaster lovers/L death/N sacrifice/N wave/C money/E
The Godfather | 1972 | new-york crime drama classic gangster/L/E/G blood gun/C wedding/C/N revenge death/C
The Godfather Part II | 1974 | new-york las-vegas crime drama epic gangster/L/E revenge death/N money/C ship/P
Casablanca | 1942 | desert city romance war drama classic lovers/L soldier/E airplane/N gun/C musician/C
Gone with the Wind | 1939 | farm house war romance epic classic drama lovers/L fire/C sunset/C death/C soldier
The Wizard of Oz | 1939 | farm fantasy musical family classic kid/L/G wizard/E/G dog/G storm/C dream/N magic/C
Snow White and the Seven Dwarfs | 1937 | forest castle animation family musical princess/L wizard/E kiss/N poison/C mirror/C
Cinderella | 1950 | castle palace animation family musical princess/L magic/C party/C clock/C wedding/N villain/E
The Lion King | 1994 | prairie desert animation family musical king/L/G villain/E mentor/G death/C revenge/C sunset/C sunlight/N
Aladdin | 1992 | desert palace animation family musical comedy thief/L/G wizard/E/G princess/L magic/C treasure/C wedding/N
Beauty and the Beast | 1991 | castle forest small-town animation musical romance princess/L/G monster/L/G villain/E magic/C dance/C kiss/N mirror/C
The Little Mermaid | 1989 | sea castle animation musical family princess/L wizard/E magic/C wedding/N ship/P storm/C
Frozen | 2013 | snow castle mountains animation musical family princess/L/G magic/C sacrifice/N villain/E
Finding Nemo | 2003 | sea animation family comedy kid/L/G shark/E/C escape/C wave/C
Shrek | 2001 | forest castle animation comedy fantasy monster/L/G princess/L king/E wedding/N magic/C
Up | 2009 | house city animation adventure family mentor/L/G kid/L/G dog/G villain/E airplane/C death/C jungle/P
WALL-E | 2008 | spaceships planet animation sci-fi romance robot/L/G computer/E apocalypse/C lovers/L dance/C
Ratatouille | 2007 | paris animation comedy family hero/L/G mentor/G villain/E dream/C party/N
The Incredibles | 2004 | city island animation superhero action family hero/L/G villain/E kid/G explosion/C
Monsters, Inc. | 2001 | city animation comedy family monster/L/G kid/L/G villain/E
Inside Out | 2015 | house city animation comedy family kid/L dream/C
Coco | 2017 | small-town animation musical family kid/L musician/L/E death/C ghost/G concert/N
Spirited Away | 2001 | palace animation fantasy kid/L/G wizard/E magic/C dream/C
My Neighbor Totoro | 1988 | farm forest animation family fantasy kid/L/G monster/G
Bambi | 1942 | forest animation family classic death/C fire/C
Dumbo | 1941 | animation family classic clown/C musical
Pinocchio | 1940 | animation family classic toys/L/G magic/C sea/P wizard/G
Fantasia | 1940 | animation musical classic magic/C wizard/L concert/C dance/C
101 Dalmatians | 1961 | london house animation family dog/L/G villain/E chase/C escape/C
Jungle Book | 1967 | jungle animation musical family kid/L/G villain/E mentor/G dance/C
Mary Poppins | 1964 | london house musical family fantasy magic/C kid/L wizard/L/G dance/C
The Sound of Music | 1965 | mountains palace musical romance biopic kid/L/G soldier/E wedding/C escape/N
West Side Story | 1961 | new-york musical romance drama teenagers/L/E gangster/E dance/C fight death/N
Singin' in the Rain | 1952 | california musical comedy classic musician/L storm/C dance/C camera/C
Grease | 1978 | school california musical rom-com teenagers/L race/C car/C dance/C party/N
The Rocky Horror Picture Show | 1975 | castle musical comedy horror lovers/L scientist/E party/C spaceships/N
La La Land | 2016 | california city musical romance musician/L/G dance/C dream/C lovers/L
Chicago | 2002 | city prison musical crime dance trial/C killer/L journalist/E
Mamma Mia! | 2008 | island musical comedy wedding/C/N party/C sea/P dance/C
Moulin Rouge! | 2001 | paris musical romance drama lovers/L musician/L dance/C death/N party/C
The Phantom of the Opera | 2004 | paris musical romance mask/C ghost/E musician/E lovers/L
Les Misérables | 2012 | paris prison musical drama epic police/E thief/L/G death/N battlefield/P
Cabaret | 1972 | city musical drama musician/L dance/C soldier/E party/C
Dirty Dancing | 1987 | hotel musical romance teenagers/L dance/C/N lovers/L party/C
Saturday Night Fever | 1977 | new-york musical drama dance/C/N teenagers/L party/C
Footloose | 1984 | small-town musical drama teenagers/L dance/C/N party/N
Rocky | 1976 | city sports drama boxer/L/G fight/C/N lovers/L mentor/G
Raging Bull | 1980 | new-york sports biopic drama boxer/L fight/C blood classic
Million Dollar Baby | 2004 | city sports drama boxer/L/G mentor/L/G fight/C death/N hospital/P
The Karate Kid | 1984 | california school sports teenagers/L/G mentor/G fight/C/N
Rush | 2013 | sports biopic race/C/N car/C fire/C
Ford v Ferrari | 2019 | sports biopic race/C/N car/C
Cool Runnings | 1993 | snow sports comedy biopic race/C/N mentor/G
Remember the Titans | 2000 | small-town school sports biopic drama teenagers/L/G mentor/G
Moneyball | 2011 | city sports biopic drama money/C computer/C
The Hustler | 1961 | city sports drama classic money/C
Chariots of Fire | 1981 | london sports biopic race/C/N
Space Jam | 1996 | animation sports comedy alien/E toys/L
Seabiscuit | 2003 | sports biopic horse/C/G race/C/N
Top Gun | 1986 | california action drama soldier/L/G airplane/C race/C death/C kiss/C
Top Gun: Maverick | 2022 | mountains snow action soldier/L/G mentor/L airplane/C/N explosion/C
Die Hard | 1988 | city california action thriller police/L/G villain/E gun/C explosion/C christmas/C money/E
Lethal Weapon | 1987 | california action comedy police/L/G drugs/C gun/C explosion/C christmas/C
Terminator | 1984 | city california action sci-fi robot/L/E soldier/G time-travel/C gun/C chase/C explosion/N
Terminator 2: Judgment Day | 1991 | california action sci-fi robot/L/G/E kid/L/G apocalypse/C gun/C chase/C fire/N sacrifice/N
Aliens | 1986 | planet spaceships sci-fi action horror alien/E soldier/L kid/G gun/C explosion/N
Alien | 1979 | spaceships planet sci-fi horror alien/E robot/E astronaut/L/G computer/C escape/N explosion/N
Predator | 1987 | jungle action sci-fi soldier/L/G alien/E gun/C explosion/N
RoboCop | 1987 | city action sci-fi robot/L/G police/L gangster/E gun/C
Total Recall | 1990 | planet city sci-fi action dream/C agent/L villain/E explosion/C
Mad Max: Fury Road | 2015 | desert highway action sci-fi road-movie car/C chase/C apocalypse/C villain/E hero/L/G escape/N
Mad Max | 1979 | highway desert action road-movie police/L car/C chase/C revenge/N gangster/E
Speed | 1994 | city california action thriller police/L/G villain/E explosion/C chase/C
The Fast and the Furious | 2001 | california city action crime car/C race/C police/L thief/L heist/C
Mission: Impossible | 1996 | london paris action spy agent/L/G heist/C computer/C mask/C explosion/N
John Wick | 2014 | new-york hotel action crime killer/L/G gangster/E dog/G revenge/C gun/C
Kill Bill: Vol. 1 | 2003 | california action crime killer/L/G blonde/L sword/C revenge/C blood fight/C hospital/P
Gladiator | 2000 | ancient palace battlefield action epic soldier/L/G king/E fight/C revenge/C death/N
Braveheart | 1995 | mountains battlefield castle action epic biopic war soldier/L/G king/E death/N sword/C
Ben-Hur | 1959 | ancient sea epic drama classic hero/L/G race/C horse/C revenge/C
Spartacus | 1960 | ancient battlefield epic classic hero/L/G king/E fight/C death/N
Troy | 2004 | ancient battlefield sea epic war soldier/L king/E horse/C fire/N
300 | 2006 | ancient battlefield action epic war soldier/L/G king/L/E death/N blood
The Ten Commandments | 1956 | desert ancient palace epic classic hero/L/G king/E magic/C wave/C
Cleopatra | 1963 | ancient palace epic biopic romance princess/L king/L death/N poison/N
Apocalypse Now | 1979 | jungle war drama soldier/L/G killer/E drugs/C fire/C
Platoon | 1986 | jungle battlefield war drama soldier/L/E death/C
Full Metal Jacket | 1987 | battlefield city war drama soldier/L/E gun/C killer/C
Saving Private Ryan | 1998 | battlefield sea war drama epic soldier/L/G death/N sacrifice/N
The Deer Hunter | 1978 | jungle small-town war drama soldier/L gun/C death/N wedding/C
Schindler's List | 1993 | city war drama biopic classic soldier/E hero/L/G money/C death/C
Dunkirk | 2017 | sea battlefield war drama soldier/L ship/P airplane/C escape/N
The Bridge on the River Kwai | 1957 | jungle prison war classic soldier/L explosion/N
The Great Escape | 1963 | prison war adventure classic soldier/L/G escape/C/N chase/C
Das Boot | 1981 | sea ship war drama soldier/L explosion/C death/N
Hacksaw Ridge | 2016 | battlefield war biopic soldier/L/G doctor/G sacrifice/C
1917 | 2019 | battlefield war drama soldier/L/G sunlight/N
Inglourious Basterds | 2009 | paris war crime soldier/L/E revenge/C fire/N camera/C
Jarhead | 2005 | desert war drama soldier/L gun/C fire/C
Black Hawk Down | 2001 | city desert war action soldier/L/G gun/C escape/N
Pearl Harbor | 2001 | island sea war romance lovers/L soldier/L airplane/C explosion/C
Forrest Gump | 1994 | small-town war drama comedy biopic hero/L/G lovers/L race/C death/C
The Shawshank Redemption | 1994 | prison drama hero/L/G mentor/G escape/C/N money/C sea/N
The Green Mile | 1999 | prison drama fantasy giant/L/G police/L magic/C death/N
Escape from Alcatraz | 1979 | prison island thriller biopic escape/C/N sea
Papillon | 1973 | prison island drama biopic escape/C/N sea
The Silence of the Lambs | 1991 | prison house thriller crime horror detective/L/G killer/L/E doctor/E blood
Se7en | 1995 | city thriller crime mystery detective/L/G killer/E blood death/N
Zodiac | 2007 | california crime thriller mystery journalist/L/G killer/E police/L
Fargo | 1996 | snow small-town crime comedy police/L/G killer/E money/C
No Country for Old Men | 2007 | desert prairie crime thriller killer/E police/L/G money/C gun/C
Heat | 1995 | california city crime action thriller police/L/G thief/L/E heist/C gun/C
The Departed | 2006 | city crime thriller police/L/E gangster/E agent/L death/N phone/C
Goodfellas | 1990 | new-york crime biopic gangster/L/E money/C drugs/C trial/N gun/C
Scarface | 1983 | city california crime drugs/C gangster/L/E money/C gun/C death/N
Casino | 1995 | las-vegas desert crime biopic gangster/L/E money/C explosion/C
Ocean's Eleven | 2001 | las-vegas hotel crime comedy thief/L/G heist/C money/C ensemble
The Sting | 1973 | city crime comedy classic thief/L/G gangster/E money/C heist/C
Reservoir Dogs | 1992 | california crime thriller thief/L/E heist/C gun/C blood death/N
The Usual Suspects | 1995 | california crime mystery thief/L villain/E ensemble heist/C trial/C
Catch Me If You Can | 2002 | airplane/C city crime biopic comedy thief/L/G agent/G money/C chase/C
The Italian Job | 1969 | london city crime comedy thief/L heist/C car/C chase/C
Bonnie and Clyde | 1967 | highway prairie crime biopic road-movie lovers/L thief/L/E death/N car/C money/C
Thelma & Louise | 1991 | highway desert road-movie crime drama police/E car/C chase/C death/N
Easy Rider | 1969 | highway desert road-movie drama drugs/C death/N
Little Miss Sunshine | 2006 | highway california road-movie comedy kid/L/G car/C dance/N death/C
Rain Man | 1988 | highway las-vegas road-movie drama money/C car/C
Planes, Trains and Automobiles | 1987 | highway road-movie comedy car/C airplane/C fire/C
Taxi Driver | 1976 | new-york crime drama killer/L/G car/C gun/C blood
Joker | 2019 | city crime drama thriller clown/L/E killer/L dance/C gun/C
The Dark Knight | 2008 | city superhero action crime hero/L/G clown/E police/G explosion/C knife/C
Batman | 1989 | city superhero action hero/L/G clown/E journalist/L/G party/C
Superman | 1978 | city new-york farm superhero hero/L/G journalist/L villain/E alien/L/G airplane/C time-travel/N
Spider-Man | 2002 | new-york superhero action hero/L/G teenagers/L villain/E scientist/E kiss/C mask/C
The Avengers | 2012 | new-york spaceships superhero action ensemble hero/G alien/E villain/E explosion/C
Avengers: Endgame | 2019 | planet spaceships superhero action epic ensemble villain/E time-travel/C sacrifice/N galaxy/C battlefield/P
Iron Man | 2008 | desert california superhero action hero/L/G scientist/L robot/L computer/C explosion/C
Black Panther | 2018 | jungle palace superhero action king/L/G villain/E fight/C
Wonder Woman | 2017 | island battlefield superhero action princess/L/G soldier/L villain/E sword/C
Guardians of the Galaxy | 2014 | galaxy spaceships planet superhero sci-fi comedy ensemble thief/L villain/E dance/C
X-Men | 2000 | school superhero action sci-fi ensemble mentor/G villain/E
Deadpool | 2016 | city superhero comedy action hero/L mask/C revenge/C sword/C
Captain America: The First Avenger | 2011 | battlefield superhero war action soldier/L/G scientist/G villain/E airplane/N snow/N
Thor | 2011 | palace small-town superhero fantasy king/L/G villain/E magic/C
Ghostbusters | 1984 | new-york comedy fantasy ghost/E scientist/L/G ensemble monster/E gun/C
Men in Black | 1997 | new-york sci-fi comedy agent/L/G alien/E gun/C galaxy/N
Independence Day | 1996 | new-york desert sci-fi action disaster alien/E soldier/L/G spaceships computer/C explosion/C/N
Armageddon | 1998 | spaceships sci-fi disaster action astronaut/L/G apocalypse/C explosion/N sacrifice/N
Deep Impact | 1998 | new-york sci-fi disaster drama astronaut/L wave/C apocalypse/C sacrifice/N
The Day After Tomorrow | 2004 | new-york snow disaster sci-fi scientist/L/G storm/C wave/C
Twister | 1996 | farm prairie disaster action scientist/L/G storm/C
The Poseidon Adventure | 1972 | ship sea disaster classic ensemble wave/C escape/N
The Towering Inferno | 1974 | city disaster classic ensemble fire/C
2012 | 2009 | city disaster sci-fi apocalypse/C wave/C ship/N
Gravity | 2013 | spaceships planet sci-fi drama astronaut/L/G sea/N escape/C
Interstellar | 2014 | farm planet spaceships sci-fi drama epic astronaut/L/G kid/G time-travel/C galaxy/C robot/G
2001: A Space Odyssey | 1968 | spaceships moon/P planet sci-fi classic astronaut/L computer/E galaxy/C baby/N
Apollo 13 | 1995 | spaceships moon sci-fi biopic drama astronaut/L/G computer/C escape/N
The Martian | 2015 | planet desert spaceships sci-fi drama astronaut/L/G computer/C escape/N
Close Encounters of the Third Kind | 1977 | small-town mountains sci-fi drama alien/G spaceships/C/N
Arrival | 2016 | farm sci-fi drama scientist/L/G alien/G spaceships/C time-travel/C baby/N
Contact | 1997 | sci-fi drama scientist/L/G galaxy/C alien/G computer/C
Inception | 2010 | city hotel sci-fi action thriller dream/C thief/L/G heist/C clock/C
Memento | 2000 | california thriller mystery detective/L camera/C revenge/C killer/L
Minority Report | 2002 | city sci-fi action police/L/G computer/C chase/C
Gattaca | 1997 | spaceships sci-fi drama astronaut/L/G doctor/E blood
A Clockwork Orange | 1971 | london city sci-fi crime drama teenagers/L/E prison/P doctor/E
Dune | 2021 | desert planet palace sci-fi epic hero/L/G king/E sword/C
Edge of Tomorrow | 2014 | battlefield london sci-fi action soldier/L/G alien/E time-travel/C death/C
Groundhog Day | 1993 | small-town comedy fantasy rom-com journalist/L clock/C time-travel/C kiss/N
Looper | 2012 | farm city sci-fi action killer/L time-travel/C kid/E
Planet of the Apes | 1968 | planet desert sci-fi classic astronaut/L/G monster/E apocalypse/N sea/N
The Fly | 1986 | city horror sci-fi scientist/L/E monster/L/E death/N
Frankenstein | 1931 | castle horror classic scientist/L/E monster/L fire/N
The Exorcist | 1973 | house horror kid/L devil/E doctor/G sacrifice/N
The Shining | 1980 | hotel snow mountains horror killer/L/E kid/G ghost/E mirror/C knife/C
Psycho | 1960 | hotel horror thriller classic killer/L/E knife/C blood money/C
The Birds | 1963 | small-town house horror thriller classic blonde/L escape/N
Rear Window | 1954 | new-york house thriller mystery classic journalist/L camera/C killer/E
Vertigo | 1958 | california city thriller mystery classic detective/L blonde/L death/N dream/C
North by Northwest | 1959 | mountains thriller spy classic agent/L/G airplane/C chase/C blonde/L
Halloween | 1978 | small-town house horror killer/E mask/C knife/C teenagers/L/G
A Nightmare on Elm Street | 1984 | house small-town horror killer/E dream/C teenagers/L/G knife/C
Friday the 13th | 1980 | forest horror killer/E teenagers/L mask/C blood
Scream | 1996 | small-town house horror mystery teenagers/L killer/E mask/C phone/C knife/C
The Texas Chain Saw Massacre | 1974 | farm highway horror killer/E teenagers/L blood escape/N
Get Out | 2017 | house farm horror thriller lovers/L villain/E escape/N camera/C
The Ring | 2002 | house island horror mystery journalist/L/G ghost/E kid/E phone/C
It | 2017 | small-town horror kid/L/G clown/E monster/E
Night of the Living Dead | 1968 | farm house horror classic zombie/E ensemble death/N
Dawn of the Dead | 1978 | city horror zombie/E ensemble escape/N
28 Days Later | 2002 | london city horror sci-fi zombie/E hospital/P apocalypse/C escape/N
Shaun of the Dead | 2004 | london comedy horror zombie/E hero/L/G
Zombieland | 2009 | highway comedy horror road-movie zombie/E ensemble car/C
World War Z | 2013 | city horror action disaster zombie/E agent/L/G apocalypse/C
Train to Busan | 2016 | horror action zombie/E kid/G sacrifice/N
Interview with the Vampire | 1994 | city horror drama vampire/L/E kid/L journalist/L blood sunlight/C
Twilight | 2008 | small-town forest romance fantasy teenagers/L vampire/L/G lovers/L
Nosferatu | 1922 | castle horror classic vampire/L/E sunlight/N death/N ship/P
The Mummy | 1999 | desert ancient adventure action horror monster/E treasure/C magic/C book/C
The Sixth Sense | 1999 | house city thriller mystery drama kid/L doctor/L/G ghost/L death/N
The Others | 2001 | house horror mystery ghost/L blonde/L kid/G sunlight/C death/N
Poltergeist | 1982 | house horror family kid/L ghost/E escape/N
Ghost | 1990 | new-york romance fantasy drama ghost/L/G lovers/L kiss/N killer/E money/C
Carrie | 1976 | school small-town horror teenagers/L magic/C party/C blood fire/N
Rosemary's Baby | 1968 | new-york horror baby/C/N devil/E lovers/L
The Omen | 1976 | london house horror kid/E devil/E knife/C
Gremlins | 1984 | small-town horror comedy monster/E christmas/C kid/G
Home Alone | 1990 | house christmas/C comedy family kid/L/G thief/E
Elf | 2003 | new-york christmas/C comedy family hero/L/G
It's a Wonderful Life | 1946 | small-town christmas/C drama classic family hero/L/G money/C
Love Actually | 2003 | london christmas/C rom-com ensemble lovers/L kiss/C
Miracle on 34th Street | 1947 | new-york christmas/C family classic kid/L trial/C
The Nightmare Before Christmas | 1993 | animation musical fantasy christmas/C monster/L ghost/L
How the Grinch Stole Christmas | 2000 | mountains small-town christmas/C comedy family monster/L/E kid/G
When Harry Met Sally... | 1989 | new-york rom-com lovers/L party/N
Pretty Woman | 1990 | california hotel rom-com lovers/L money/C
Notting Hill | 1999 | london rom-com lovers/L camera/C
Four Weddings and a Funeral | 1994 | london rom-com ensemble wedding/C death/C lovers/L
Sleepless in Seattle | 1993 | city rom-com lovers/L phone/C kid/G
You've Got Mail | 1998 | new-york rom-com lovers/L computer/C book/C
Bridget Jones's Diary | 2001 | london rom-com lovers/L party/C book/C
The Notebook | 2004 | small-town romance drama lovers/L book/C death/N
Roman Holiday | 1953 | ancient city rom-com classic princess/L journalist/L
Breakfast at Tiffany's | 1961 | new-york rom-com classic lovers/L party/C
Some Like It Hot | 1959 | hotel comedy classic musician/L blonde/L gangster/E
The Graduate | 1967 | california house drama comedy teenagers/L lovers/L wedding/N
Annie Hall | 1977 | new-york rom-com lovers/L
Crazy Rich Asians | 2018 | island palace rom-com lovers/L wedding/C money/C
The Princess Bride | 1987 | castle forest fantasy adventure comedy princess/L/G pirate/L/G king/E sword/C kiss/N
Pride and Prejudice | 2005 | house farm romance drama lovers/L party/C wedding/N
Sense and Sensibility | 1995 | house romance drama lovers/L wedding/N
Romeo + Juliet | 1996 | city romance drama lovers/L death/N poison/N gun/C
Brokeback Mountain | 2005 | mountains prairie romance drama cowboy/L lovers/L death/N
Call Me by Your Name | 2017 | farm romance drama lovers/L teenagers/L
Amélie | 2001 | paris rom-com comedy hero/L/G camera/C
Before Sunrise | 1995 | city romance lovers/L
The English Patient | 1996 | desert war romance epic lovers/L airplane/C death/N
Out of Africa | 1985 | farm prairie romance biopic epic lovers/L airplane/C death/N
Doctor Zhivago | 1965 | snow city romance war epic doctor/L lovers/L
Lost in Translation | 2003 | hotel city drama romance lovers/L
Eternal Sunshine of the Spotless Mind | 2004 | city romance sci-fi lovers/L dream/C doctor/E
Her | 2013 | city romance sci-fi computer/L/C lovers/L phone/C
The Shape of Water | 2017 | city romance fantasy monster/L/G scientist/E soldier/E sea/N
Star Trek | 2009 | galaxy spaceships planet sci-fi action hero/L/G villain/E alien/G explosion/C
The Fifth Element | 1997 | city spaceships galaxy sci-fi action comedy hero/L/G princess/L villain/E alien/E
The Truman Show | 1998 | small-town island sci-fi drama comedy hero/L camera/C escape/N sea/C
Jumanji | 1995 | house jungle fantasy adventure family kid/L magic/C monster/E
Honey, I Shrunk the Kids | 1989 | house family comedy sci-fi scientist/L kid/L/G
Big | 1988 | new-york comedy fantasy kid/L magic/C toys/C
Mrs. Doubtfire | 1993 | california house comedy family mask/C kid/G
Ferris Bueller's Day Off | 1986 | city school comedy teenagers/L/G car/C party/C
The Breakfast Club | 1985 | school comedy drama teenagers/L ensemble
Mean Girls | 2004 | school comedy teenagers/L party/C
Clueless | 1995 | california school rom-com teenagers/L blonde/L party/C
Legally Blonde | 2001 | school california comedy blonde/L/G trial/C/N
American Pie | 1999 | school small-town comedy teenagers/L party/C
Superbad | 2007 | school comedy teenagers/L party/C police/C
The Hangover | 2009 | las-vegas hotel comedy ensemble party/C wedding/N
Anchorman | 2004 | california comedy journalist/L fight/C
Airplane! | 1980 | airplane/C/P comedy doctor/L disaster
Dr. Strangelove | 1964 | battlefield comedy war classic scientist/E soldier/L airplane/C apocalypse/N explosion/N
Monty Python and the Holy Grail | 1975 | castle forest comedy fantasy knight/L king/L/G treasure/C police/N
Monty Python's Life of Brian | 1979 | desert ancient comedy hero/L death/N
Young Frankenstein | 1974 | castle comedy horror classic scientist/L monster/L/G dance/C
The Big Lebowski | 1998 | california comedy crime hero/L/G money/C party/C
Dumb and Dumber | 1994 | highway snow road-movie comedy car/C money/C
The Mask | 1994 | city comedy fantasy mask/C/L hero/L/G gangster/E dog/G dance/C
Ace Ventura: Pet Detective | 1994 | city comedy detective/L dog/G police/E
Beetlejuice | 1988 | house small-town comedy fantasy ghost/L/E wedding/C
Edward Scissorhands | 1990 | small-town castle fantasy romance monster/L/G scientist/G knife/C snow/N
The Addams Family | 1991 | house comedy family monster/L ghost/G money/E
Charlie and the Chocolate Factory | 2005 | city fantasy family comedy kid/L/G mentor/L treasure/C
Willy Wonka & the Chocolate Factory | 1971 | city fantasy musical family classic kid/L/G mentor/L treasure/C
Harry Potter and the Philosopher's Stone | 2001 | castle school london fantasy family wizard/L/G/E kid/L treasure/C magic/C
Harry Potter and the Deathly Hallows – Part 2 | 2011 | castle battlefield fantasy epic wizard/L/G/E death/C sacrifice/C magic/C
The Lord of the Rings: The Fellowship of the Ring | 2001 | mountains forest cave fantasy adventure epic ring/C wizard/G/E ensemble sword/C
The Lord of the Rings: The Return of the King | 2003 | mountains battlefield castle fantasy epic king/L ring/C/N fire/N wizard/G
The Hobbit: An Unexpected Journey | 2012 | mountains cave fantasy adventure wizard/G treasure/C ring/C monster/E
The Chronicles of Narnia | 2005 | snow forest house fantasy family kid/L wizard/E battlefield/P
Pan's Labyrinth | 2006 | forest battlefield fantasy war kid/L/G soldier/E monster/E death/N
Labyrinth | 1986 | castle fantasy musical kid/L/G king/E baby/C clock/C
The NeverEnding Story | 1984 | castle fantasy adventure kid/L/G book/C dream/C
Willow | 1988 | castle forest fantasy adventure wizard/L/G baby/C villain/E
Conan the Barbarian | 1982 | desert mountains fantasy action hero/L/G wizard/E sword/C revenge/C
Pirates of the Caribbean: The Curse of the Black Pearl | 2003 | sea island ship adventure fantasy pirate/L/G/E treasure/C ghost/E sword/C
Hook | 1991 | island ship fantasy family pirate/E kid/G hero/L
Peter Pan | 1953 | london island animation fantasy family kid/L/G pirate/E magic/C
Treasure Island | 1950 | island ship sea adventure classic pirate/E kid/L treasure/C map/C
The Goonies | 1985 | small-town cave adventure family teenagers/L/G treasure/C map/C pirate/C gangster/E
Stand by Me | 1986 | small-town forest drama adventure teenagers/L death/C
The Adventures of Robin Hood | 1938 | forest castle adventure classic thief/L/G king/E sword/C
Around the World in 80 Days | 1956 | ship sea adventure classic hero/L/G race/C clock/C
Twenty Thousand Leagues Under the Sea | 1954 | sea ship adventure sci-fi classic scientist/L/E monster/E explosion/N
Journey to the Center of the Earth | 1959 | cave mountains adventure sci-fi classic scientist/L/G dinosaur/E
The African Queen | 1951 | jungle ship adventure romance classic lovers/L soldier/E explosion/N
Life of Pi | 2012 | sea ship adventure drama kid/L/G storm/C
Cast Away | 2000 | island sea adventure drama hero/L/G airplane/C escape/N
The Revenant | 2015 | snow forest mountains western adventure hero/L revenge/C/N
Dances with Wolves | 1990 | prairie western epic soldier/L/G horse/C
The Good, the Bad and the Ugly | 1966 | desert prairie battlefield western classic cowboy/L/G/E gun/C treasure/C money/C
Once Upon a Time in the West | 1968 | prairie desert western epic cowboy/L/G/E revenge/C gun/C
Butch Cassidy and the Sundance Kid | 1969 | prairie mountains western comedy cowboy/L thief/L/G money/C death/N
High Noon | 1952 | small-town prairie western classic police/L/G cowboy/E clock/C gun/C wedding/C
The Searchers | 1956 | prairie desert western classic cowboy/L/G revenge/C
Unforgiven | 1992 | prairie small-town western drama cowboy/L/E killer/L money/C revenge/C
True Grit | 2010 | prairie western adventure kid/L/G cowboy/L/G revenge/C horse/C
Django Unchained | 2012 | prairie farm western action cowboy/L/G villain/E revenge/C/N gun/C explosion/N
Stagecoach | 1939 | prairie desert western classic ensemble cowboy/L horse/C chase/C
Tombstone | 1993 | small-town prairie western action police/L/G cowboy/E gun/C
The Magnificent Seven | 1960 | prairie small-town western classic ensemble cowboy/L/G gun/C
Slumdog Millionaire | 2008 | city drama romance kid/L/G money/C dance/N
The Social Network | 2010 | school california drama biopic computer/C money/C trial/C teenagers/L
Citizen Kane | 1941 | palace drama classic journalist/L death/C mystery
The Wolf of Wall Street | 2013 | new-york crime biopic comedy money/C drugs/C thief/L
The Great Gatsby | 2013 | new-york house drama romance lovers/L party/C car/C death/N money/C
Amadeus | 1984 | palace city drama biopic musician/L/E concert/C death/N
Bohemian Rhapsody | 2018 | london drama biopic musician/L concert/C/N
Whiplash | 2014 | school new-york drama musician/L mentor/E concert/C/N blood
A Star Is Born | 2018 | california drama romance musician/L concert/C death/N
Walk the Line | 2005 | drama biopic musician/L lovers/L concert/C drugs/C
Ray | 2004 | drama biopic musician/L drugs/C concert/C
Elvis | 2022 | las-vegas drama biopic musician/L concert/C
Black Swan | 2010 | new-york thriller drama dance/C mirror/C blood death/N
Good Will Hunting | 1997 | city school drama teenagers/L/G mentor/G book/C
Dead Poets Society | 1989 | school drama mentor/L/G teenagers/L book/C death/C
One Flew Over the Cuckoo's Nest | 1975 | hospital drama classic hero/L doctor/E escape/N
A Beautiful Mind | 2001 | school drama biopic scientist/L dream/C
The Theory of Everything | 2014 | london school drama biopic scientist/L/G lovers/L galaxy/C
The Imitation Game | 2014 | london war drama biopic scientist/L/G computer/C spy/F
Hidden Figures | 2016 | spaceships drama biopic scientist/L/G computer/C astronaut/G
Oppenheimer | 2023 | desert war biopic drama scientist/L explosion/C trial/C
Lincoln | 2012 | palace drama biopic war hero/L/G
Gandhi | 1982 | city drama biopic epic hero/L/G death/N
Malcolm X | 1992 | new-york drama biopic hero/L/G death/N
The King's Speech | 2010 | london palace drama biopic king/L/G mentor/G war/C
12 Years a Slave | 2013 | farm drama biopic hero/L/G escape/N
Selma | 2014 | small-town drama biopic hero/L/G police/E
The Pianist | 2002 | city war drama biopic musician/L/G soldier/E
Life Is Beautiful | 1997 | prison war comedy drama kid/L/G hero/L/G soldier/E sacrifice/N
Philadelphia | 1993 | city drama trial/C hospital
Erin Brockovich | 2000 | california small-town drama biopic blonde/L/G trial/C money/C poison/C
Spotlight | 2015 | city drama biopic journalist/L/G
All the President's Men | 1976 | city drama biopic thriller journalist/L/G phone/C
To Kill a Mockingbird | 1962 | small-town drama classic kid/L hero/L/G trial/C
12 Angry Men | 1957 | city drama classic ensemble trial/C/N knife/C
A Few Good Men | 1992 | island drama trial/C/N soldier/E/L
Kramer vs. Kramer | 1979 | new-york drama kid/L trial/C
American Beauty | 1999 | house small-town drama teenagers/L death/N gun/C
Fight Club | 1999 | city drama thriller hero/L/E fight/C dream/C explosion/N
Trainspotting | 1996 | city drama comedy drugs/C teenagers/L money/N
Requiem for a Dream | 2000 | new-york drama drugs/C dream/C hospital/N
Boyhood | 2014 | small-town drama kid/L teenagers/L
Moonlight | 2016 | city drama kid/L teenagers/L drugs/C sea/C
Parasite | 2019 | house city thriller drama comedy ensemble money/C party/N knife/C
Oldboy | 2003 | city thriller crime hero/L revenge/C/N prison/P
Crouching Tiger, Hidden Dragon | 2000 | mountains forest action fantasy romance sword/C fight/C thief/E
Enter the Dragon | 1973 | island action crime hero/L/G fight/C mirror/N villain/E
Seven Samurai | 1954 | farm battlefield action epic classic ensemble soldier/L/G sword/C thief/E
Rashomon | 1950 | forest drama mystery classic thief/L killer/L trial/C
Akira | 1988 | city animation sci-fi action teenagers/L/E car/C explosion/N
Princess Mononoke | 1997 | forest animation fantasy epic princess/L/G monster/G war/C
Godzilla | 1954 | city sea sci-fi horror classic monster/L/E scientist/G explosion/N
Pacific Rim | 2013 | sea city sci-fi action robot/L/G monster/E apocalypse/C
Transformers | 2007 | city desert sci-fi action robot/L/G/E teenagers/L car/C
Tron | 1982 | computer/P/C sci-fi action hero/L/G villain/E race/C
Ready Player One | 2018 | city computer/P/C sci-fi adventure teenagers/L/G race/C treasure/C
The Terminal | 2004 | airplane/P/C comedy drama hero/L/G
Sully | 2016 | new-york airplane/C drama biopic hero/L/G sea/N trial/C
Captain Phillips | 2013 | ship sea thriller biopic pirate/E hero/L/G
The Perfect Storm | 2000 | sea ship disaster drama storm/C wave/C/N death/N
The Abyss | 1989 | sea sci-fi adventure alien/G scientist/L ship/P
Waterworld | 1995 | sea ship sci-fi action apocalypse/C hero/L/G map/C pirate/E
Master and Commander | 2003 | sea ship war adventure soldier/L/G storm/C
The Da Vinci Code | 2006 | paris london mystery thriller scientist/L/G book/C treasure/C killer/E
Sherlock Holmes | 2009 | london mystery action detective/L/G villain/E magic/C
Murder on the Orient Express | 2017 | snow mystery ensemble detective/L/G killer/C knife/C
Knives Out | 2019 | house mystery comedy ensemble detective/L/G knife/C money/C death/C
Gone Girl | 2014 | house small-town thriller mystery lovers/L/E blood
Chinatown | 1974 | california desert crime mystery detective/L money/C death/N
The Maltese Falcon | 1941 | city crime mystery classic detective/L/G treasure/C blonde/E
L.A. Confidential | 1997 | california crime mystery police/L/G/E blonde/L
Who Framed Roger Rabbit | 1988 | california animation comedy mystery detective/L/G villain/E blonde/L
The Third Man | 1949 | city thriller mystery classic villain/E
Casino Royale | 2006 | hotel spy action agent/L/G money/C poison/C death/N
Goldfinger | 1964 | spy action classic agent/L/G villain/E blonde/L treasure/C car/C
Dr. No | 1962 | island spy action classic agent/L/G scientist/E
Skyfall | 2012 | london island spy action agent/L/G villain/E mentor/G death/N
The Bourne Identity | 2002 | paris spy action thriller agent/L/G car/C chase/C
Tinker Tailor Soldier Spy | 2011 | london spy thriller agent/L
Bridge of Spies | 2015 | city spy drama biopic agent/L trial/C
Kingsman: The Secret Service | 2014 | london spy action comedy agent/L/G mentor/G villain/E phone/C
True Lies | 1994 | city spy action comedy agent/L/G explosion/C
Austin Powers: International Man of Mystery | 1997 | las-vegas spy comedy agent/L/G villain/E time-travel/C
The Hunger Games | 2012 | forest city sci-fi action teenagers/L/G villain/E fire/C
The Maze Runner | 2014 | forest sci-fi action teenagers/L escape/N
Rebel Without a Cause | 1955 | small-town drama classic teenagers/L car/C race/C
Gran Torino | 2008 | small-town drama mentor/L/G car/C gangster/E sacrifice/N
Taken | 2008 | paris action thriller agent/L/G kid/G gangster/E
The Bodyguard | 1992 | city romance thriller musician/L agent/L/G concert/C killer/E
Driving Miss Daisy | 1989 | small-town drama comedy car/C mentor/L
The Intouchables | 2011 | paris comedy drama biopic hero/L/G car/C
Green Book | 2018 | highway road-movie drama biopic musician/L car/C christmas/N
The Grand Budapest Hotel | 2014 | hotel mountains comedy crime mentor/L/G thief/L prison/P
Mulholland Drive | 2001 | california mystery thriller blonde/L dream/C
Blue Velvet | 1986 | small-town mystery thriller teenagers/L gangster/E
The Piano | 1993 | sea farm romance drama musician/L lovers/L
Cinema Paradiso | 1988 | small-town drama kid/L mentor/G camera/C kiss/N
La Dolce Vita | 1960 | city drama classic journalist/L party/C
Breathless | 1960 | paris crime romance classic thief/L police/E death/N
The 400 Blows | 1959 | paris drama classic kid/L school/P sea/N escape/C
Metropolis | 1927 | city sci-fi classic robot/E/L scientist/E
Modern Times | 1936 | city comedy classic hero/L/G
The Kid | 1921 | city comedy classic kid/L/G hero/L
City Lights | 1931 | city comedy romance classic hero/L/G lovers/L money/C
Sunset Boulevard | 1950 | california house drama classic camera/C killer/L death/C
It Happened One Night | 1934 | highway rom-com classic lovers/L journalist/L
Lady and the Tramp | 1955 | small-town animation romance family dog/L lovers/L
The Aristocats | 1970 | paris animation family musical villain/E musician/C
Mulan | 1998 | palace battlefield animation action family soldier/L/G princess/L/G villain/E
Pocahontas | 1995 | forest animation musical romance princess/L soldier/E
Tangled | 2010 | castle forest animation musical family princess/L thief/L/G wizard/E
Moana | 2016 | island sea animation musical adventure princess/L/G giant/L/G monster/E
Zootopia | 2016 | city animation comedy mystery police/L/G thief/G villain/E
Kung Fu Panda | 2008 | palace mountains animation comedy action hero/L/G mentor/G fight/C
How to Train Your Dragon | 2010 | island animation fantasy family teenagers/L/G monster/L/G
Despicable Me | 2010 | house animation comedy family villain/L/E kid/G moon/C
Cars | 2006 | highway small-town animation comedy sports car/C/L race/C/N
Madagascar | 2005 | island new-york animation comedy family ensemble escape/C
Ice Age | 2002 | snow animation comedy family baby/C ensemble
The Lego Movie | 2014 | city animation comedy toys/L/G hero/L villain/E
Wreck-It Ralph | 2012 | computer/P/C animation comedy giant/L/G race/C
Toy Story 3 | 2010 | house school animation family toys/L/G kid/G fire/C villain/E
Chicken Run | 2000 | farm animation comedy escape/C/N airplane/C villain/E
Babe | 1995 | farm family comedy dog/G hero/L/G
Paddington | 2014 | london house family comedy hero/L/G villain/E
Free Willy | 1993 | sea family drama kid/L/G escape/N
Lassie Come Home | 1943 | farm family classic dog/L/G kid/L
Beethoven | 1992 | house family comedy dog/L/G villain/E
Marley & Me | 2008 | house family comedy drama dog/L death/N
Hachi: A Dog's Tale | 2009 | small-town drama dog/L/G death/N
Eight Below | 2006 | snow drama adventure dog/L/G
White Fang | 1991 | snow forest adventure dog/L/G
Jurassic World | 2015 | island jungle sci-fi action dinosaur/L/E scientist/G kid/G
The Land Before Time | 1988 | animation family dinosaur/L/G death/C
Cloverfield | 2008 | new-york sci-fi horror monster/E camera/C party/C
District 9 | 2009 | city sci-fi action alien/L/G agent/E spaceships/N
War of the Worlds | 2005 | city house sci-fi disaster alien/E kid/G escape/C
Signs | 2002 | farm sci-fi thriller alien/E mentor/L kid/G
The Thing | 1982 | snow horror sci-fi alien/E ensemble fire/N
Mars Attacks! | 1996 | las-vegas comedy sci-fi alien/E ensemble musician/N
Galaxy Quest | 1999 | spaceships galaxy comedy sci-fi ensemble alien/G
Starship Troopers | 1997 | planet battlefield sci-fi action soldier/L monster/E
The Day the Earth Stood Still | 1951 | city sci-fi classic alien/L/G robot/G
Bill & Ted's Excellent Adventure | 1989 | school comedy sci-fi teenagers/L time-travel/C musician/L
Big Fish | 2003 | small-town fantasy drama giant/G death/N
The Curious Case of Benjamin Button | 2008 | city fantasy romance drama lovers/L baby/N clock/C
The Pursuit of Happyness | 2006 | city drama biopic kid/L/G money/C
The Blind Side | 2009 | school drama sports biopic teenagers/L/G
Field of Dreams | 1989 | farm drama sports fantasy ghost/G dream/C
Jerry Maguire | 1996 | city rom-com sports money/C kid/G
Hugo | 2011 | paris family adventure kid/L/G camera/C robot/G clock/C
The Artist | 2011 | california rom-com classic dog/G camera/C dance/N
Birdman | 2014 | new-york comedy drama hero/L gun/C
Nomadland | 2020 | highway desert road-movie drama
Everything Everywhere All at Once | 2022 | city sci-fi comedy action fight/C
Barbie | 2023 | california city comedy fantasy toys/L/G blonde/L
Dirty Harry | 1971 | california crime action police/L/G killer/E gun/C
Bullitt | 1968 | california crime action police/L car/C chase/C
The French Connection | 1971 | new-york crime action police/L/G drugs/C chase/C
Serpico | 1973 | new-york crime drama biopic police/L/G
Training Day | 2001 | california crime thriller police/L/E drugs/C
Point Break | 1991 | california sea crime action agent/L thief/E wave/N
The Town | 2010 | city crime thriller thief/L/G heist/C police/E
Baby Driver | 2017 | city crime action car/C heist/C chase/C
Drive | 2011 | california crime thriller car/C hero/L gangster/E
Léon: The Professional | 1994 | new-york crime action killer/L/G kid/L/G police/E
Snatch | 2000 | london crime comedy boxer/L gangster/E dog/C treasure/C
Lock, Stock and Two Smoking Barrels | 1998 | london crime comedy ensemble money/C gun/C
The Untouchables | 1987 | city crime drama police/L/G gangster/E gun/C trial/N
Once Upon a Time in America | 1984 | new-york crime epic gangster/L money/C drugs/C
American Gangster | 2007 | new-york crime biopic gangster/L drugs/C police/G
City of God | 2002 | city crime drama teenagers/L gangster/E camera/C gun/C
Inside Man | 2006 | new-york crime thriller thief/L heist/C police/L
Now You See Me | 2013 | las-vegas crime thriller ensemble magic/C heist/C
The Prestige | 2006 | london mystery drama magic/C/L scientist/C death/N
The Illusionist | 2006 | city mystery romance magic/C lovers/L police/E
Shutter Island | 2010 | island hospital thriller mystery agent/L doctor/E storm/C
Misery | 1990 | house snow thriller horror book/C killer/E
Cape Fear | 1991 | sea small-town thriller killer/E revenge/C
Basic Instinct | 1992 | california thriller mystery blonde/E/L police/L knife/C
Fatal Attraction | 1987 | new-york house thriller lovers/L killer/E knife/C
Panic Room | 2002 | new-york house thriller kid/G thief/E
The Fugitive | 1993 | city thriller action doctor/L/G police/E chase/C escape/C
Air Force One | 1997 | airplane/C/P action thriller villain/E hero/L/G
Con Air | 1997 | airplane/C/P las-vegas action prison/P hero/L/G villain/E
Face/Off | 1997 | california action thriller agent/L/G villain/E mask/C
The Rock | 1996 | island prison action thriller scientist/L/G soldier/E
Cliffhanger | 1993 | mountains snow action hero/L/G thief/E money/C
Sicario | 2015 | desert crime thriller agent/L drugs/C
Jackie Brown | 1997 | california crime thriller money/C gun/C
Avatar: The Way of Water | 2022 | sea island planet sci-fi adventure alien/L/G soldier/E wave/C
Star Wars: The Force Awakens | 2015 | galaxy spaceships desert snow sci-fi epic hero/L/G villain/E robot/G sword/C
Rogue One | 2016 | galaxy spaceships planet sci-fi war ensemble sacrifice/N explosion/C
Blade Runner 2049 | 2017 | city desert sci-fi robot/L police/L snow/N
Rocky IV | 1985 | snow sports boxer/L/G fight/C/N revenge/C
Creed | 2015 | city sports drama boxer/L/G mentor/G fight/C/N
Cinderella Man | 2005 | new-york sports biopic boxer/L/G fight/C money/C
The Wrestler | 2008 | small-town sports drama fight/C
Days of Thunder | 1990 | sports action race/C car/C
School of Rock | 2003 | school comedy musical musician/L/G kid/G concert/C/N
Sister Act | 1992 | city comedy musical musician/L/G gangster/E
This Is Spinal Tap | 1984 | comedy musician/L concert/C
Almost Famous | 2000 | highway drama comedy road-movie journalist/L musician/L concert/C
Pitch Perfect | 2012 | school comedy musical teenagers/L concert/C/N
High School Musical | 2006 | school musical teenagers/L dance/C concert/N
Hairspray | 2007 | city musical comedy teenagers/L dance/C
The Greatest Showman | 2017 | city musical biopic dance/C fire/C
Annie | 1982 | new-york musical family kid/L/G money/C
Oliver! | 1968 | london musical classic kid/L/G thief/L/E
My Fair Lady | 1964 | london musical classic mentor/L dance/C
The King and I | 1956 | palace musical classic king/L mentor/L/G dance/C death/N
A Hard Day's Night | 1964 | london musical comedy musician/L concert/N
"""
