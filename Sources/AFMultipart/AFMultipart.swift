/// AFMultipart: multipart/form-data with disk spill above 10 MB (see issue "AFMultipart").
@_exported import AFCore
