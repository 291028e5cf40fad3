/// AFAuth: AuthenticationInterceptor and OAuth refresh (see issue "AFAuth").
@_exported import AFCore
