print("af")
